import { networkHistoryMessages, type VersionDiffRow } from '@hublink/contract';
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';

const CHANGED_STYLE = { background: '#fff7e6' };

/** Two versions side by side: field | 版本 A | 版本 B, changed rows highlighted. */
export function VersionDiffTable({ rows, labelA, labelB }: { rows: readonly VersionDiffRow[]; labelA: string; labelB: string }) {
  const value = (v: string, changed: boolean) => (
    <Typography.Text strong={changed} style={{ wordBreak: 'break-all' }}>
      {v === '' ? '—' : v}
    </Typography.Text>
  );
  const columns: ColumnsType<VersionDiffRow> = [
    { title: networkHistoryMessages.histColField, dataIndex: 'label', key: 'label', width: '30%', render: (v: string) => <span style={{ wordBreak: 'break-all' }}>{v}</span> },
    { title: labelA, dataIndex: 'a', key: 'a', render: (v: string, r) => value(v, r.changed) },
    { title: labelB, dataIndex: 'b', key: 'b', render: (v: string, r) => value(v, r.changed) },
  ];
  return (
    <Table<VersionDiffRow>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={[...rows]}
      pagination={false}
      tableLayout="fixed"
      scroll={{ y: 420 }}
      onRow={(r) => ({ style: r.changed ? CHANGED_STYLE : undefined, 'data-changed': r.changed ? '1' : '0' }) as React.HTMLAttributes<HTMLElement>}
      locale={{ emptyText: networkHistoryMessages.histNoChange }}
    />
  );
}
