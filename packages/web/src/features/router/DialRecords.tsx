import { LIMITS, ONLINE_MODES, onlineLog, type OnlineLogItem, routerMessages } from '@hublink/contract';
import { DatePicker, Flex, Radio, type TableColumnsType } from 'antd';
import type { Dayjs } from '../../components/dayjs';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { DAY_FORMAT, defaultLogRange } from '../../components/logRange';
import { duration } from '../../components/device/format';

type Mode = (typeof ONLINE_MODES)[number];
const MODE_LABELS: Record<Mode, string> = { p2p: 'P2P', pop: 'POP' };

const common: TableColumnsType<OnlineLogItem> = [
  { title: routerMessages.memberDialOrig, dataIndex: 'orig', key: 'orig' },
  { title: routerMessages.memberDialVpnIp, dataIndex: 'vpn_ip', key: 'vpn_ip' },
  { title: routerMessages.memberDialStart, dataIndex: 'start_time', key: 'start_time', width: 170 },
  { title: routerMessages.memberDialEnd, dataIndex: 'end_time', key: 'end_time', width: 170, render: (v: string) => v || routerMessages.memberDialOngoing },
  { title: routerMessages.memberDialDuration, dataIndex: 'online_time', key: 'online_time', render: (v: number) => duration(v) },
];

/** The columns of spec 3 §3 "Online log" per mode. */
export const DIAL_COLUMNS: Record<Mode, TableColumnsType<OnlineLogItem>> = {
  p2p: [
    { title: routerMessages.memberDialName, dataIndex: 'router_name', key: 'router_name' },
    { title: routerMessages.memberDialNetwork, dataIndex: 'network_number', key: 'network_number' },
    { title: routerMessages.memberDialPeer, dataIndex: 'link_router_name', key: 'link_router_name' },
    ...common,
  ],
  pop: [
    { title: routerMessages.memberDialName, dataIndex: 'router_name', key: 'router_name' },
    { title: routerMessages.memberDialPop, dataIndex: 'pop_name', key: 'pop_name' },
    { title: routerMessages.memberDialArea, dataIndex: 'area', key: 'area' },
    ...common,
  ],
};

/** A member's dial records (online log): p2p or POP sessions in a date range, with a search box. */
export function DialRecords({ routerName }: { routerName: string }) {
  const [mode, setMode] = useState<Mode>('p2p');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultLogRange());
  const list = usePagedList(
    onlineLog,
    { limit: LIMITS.pageSize, mode, router_name: routerName, start_time: range[0].format(DAY_FORMAT), end_time: range[1].format(DAY_FORMAT) },
    { on204: 'stay' },
  );
  useStepBackWhenEmpty(list);

  return (
    <PagedTable<OnlineLogItem>
      rowKey={(r) => `${r.start_time}-${r.network_number}-${r.pop_name}-${r.link_router_name}-${r.vpn_ip}`}
      size="small"
      columns={DIAL_COLUMNS[mode]}
      list={list}
      searchable
      scroll={{ x: 'max-content' }}
      toolbar={
        <Flex gap={8} wrap>
          <Radio.Group
            value={mode}
            optionType="button"
            options={ONLINE_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
            onChange={(e) => {
              setMode(e.target.value as Mode);
              list.setPage(1);
            }}
          />
          <DatePicker.RangePicker
            value={range}
            format={DAY_FORMAT}
            allowClear={false}
            aria-label={routerMessages.memberLogRange}
            onChange={(v) => {
              if (v?.[0] && v[1]) {
                setRange([v[0], v[1]]);
                list.setPage(1);
              }
            }}
          />
        </Flex>
      }
    />
  );
}
