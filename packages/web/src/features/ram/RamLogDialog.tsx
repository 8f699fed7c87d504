import { LIMITS, type RamItem, ramLog, type RamLogItem, ramMessages } from '@hublink/contract';
import { DatePicker, Flex, Modal } from 'antd';
import type { Dayjs } from '../../components/dayjs';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import { DAY_FORMAT, defaultLogRange } from '../../components/logRange';
import { PagedTable } from '../../components/PagedTable';
import { actionLabel, areaLabel } from './logLabels';

const columns = [
  { title: ramMessages.ramLogMode, dataIndex: 'mode', key: 'mode', width: 120, render: (v: string) => <span title={v}>{areaLabel(v)}</span> },
  { title: ramMessages.ramLogAction, dataIndex: 'action', key: 'action', width: 160, render: (v: string) => <span title={v}>{actionLabel(v)}</span> },
  { title: ramMessages.ramLogMessage, dataIndex: 'message', key: 'message' },
  { title: ramMessages.ramLogTime, dataIndex: 'create_time', key: 'create_time', width: 180 },
];

/** A sub-account's operation log in a date range, paged (spec 1 §2.11). */
export function RamLogDialog({ record, onClose }: { record: RamItem | undefined; onClose: () => void }) {
  return (
    <Modal title={record ? `${ramMessages.ramLogTitle} - ${record.nickname}` : ramMessages.ramLogTitle} open={record !== undefined} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      {record && <LogTable ramId={record.id} />}
    </Modal>
  );
}

function LogTable({ ramId }: { ramId: number }) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultLogRange());
  const list = usePagedList(ramLog, { limit: LIMITS.pageSize, ram_id: ramId, start_time: range[0].format(DAY_FORMAT), end_time: range[1].format(DAY_FORMAT) });
  return (
    <Flex vertical gap={16}>
      <DatePicker.RangePicker
        value={range}
        format={DAY_FORMAT}
        allowClear={false}
        aria-label={ramMessages.ramLogTime}
        onChange={(v) => {
          if (v?.[0] && v[1]) {
            setRange([v[0], v[1]]);
            list.setPage(1);
          }
        }}
      />
      <PagedTable<RamLogItem>
        rowKey="id"
        size="small"
        columns={columns}
        list={list}
      />
    </Flex>
  );
}
