import { LIMITS, networkTicketMessages, selectNetworks } from '@hublink/contract';
import { Button, DatePicker, Flex, Input, Select } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import type { Dayjs } from '../../components/dayjs';
import { DAY_FORMAT } from '../../components/logRange';

/** What the list is filtered by: the ticket number (the search), a network and the days of creation. */
export interface TicketFilterValues {
  search: string;
  network_number?: string;
  start_time?: string;
  end_time?: string;
}

/** The filter bar of the work order list: fields apply on 查询 (or Enter in the number), 重置 clears them. */
export function TicketFilters({ onApply }: { onApply: (v: TicketFilterValues) => void }) {
  const [number, setNumber] = useState('');
  const [network, setNetwork] = useState<string | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const networks = useApiQuery(selectNetworks);

  const apply = () =>
    onApply({
      search: number.trim(),
      ...(network ? { network_number: network } : {}),
      ...(range?.[0] ? { start_time: range[0].format(DAY_FORMAT) } : {}),
      ...(range?.[1] ? { end_time: range[1].format(DAY_FORMAT) } : {}),
    });
  const reset = () => {
    setNumber('');
    setNetwork(undefined);
    setRange(null);
    onApply({ search: '' });
  };

  return (
    <Flex gap={8} wrap align="center">
      <Input
        allowClear
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        onPressEnter={apply}
        placeholder={networkTicketMessages.ticketFilterNumber}
        aria-label={networkTicketMessages.ticketColNumber}
        maxLength={LIMITS.searchMax}
        style={{ width: 200 }}
      />
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        value={network}
        onChange={setNetwork}
        placeholder={networkTicketMessages.ticketFilterNetwork}
        aria-label={networkTicketMessages.ticketColNetwork}
        loading={networks.isFetching}
        options={(networks.data?.data ?? []).map((n) => ({ value: n.network_number, label: `${n.network_name} (${n.network_number})` }))}
        style={{ width: 240 }}
      />
      <DatePicker.RangePicker
        value={range}
        onChange={(v) => setRange(v)}
        placeholder={[networkTicketMessages.ticketFilterStart, networkTicketMessages.ticketFilterEnd]}
        allowEmpty={[true, true]}
        style={{ width: 260 }}
      />
      <Button type="primary" onClick={apply}>
        {networkTicketMessages.ticketSearch}
      </Button>
      <Button onClick={reset}>{networkTicketMessages.ticketReset}</Button>
    </Flex>
  );
}
