import { type BatchResult, type BatchResultRow, fmt, LIMITS, routerMessages } from '@hublink/contract';
import { Alert, Flex, Table, Tag } from 'antd';

const columns = [
  // Narrow number and state columns: on a phone the reason keeps the width it needs to read.
  { title: routerMessages.memberResultRow, dataIndex: 'row', key: 'row', width: 56, render: (v: number) => (v > 0 ? v : '-') },
  { title: routerMessages.memberResultAccount, dataIndex: 'router_name', key: 'router_name', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
  {
    title: routerMessages.memberResultState,
    dataIndex: 'ok',
    key: 'ok',
    width: 72,
    render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? routerMessages.memberResultOk : routerMessages.memberResultFail}</Tag>,
  },
  { title: routerMessages.memberResultReason, dataIndex: 'msg', key: 'msg' },
];

/**
 * The result of a bulk add or delete: '成功 N 条，失败 N 条' and a row per spreadsheet row or member
 * (`rowsOnly`: the table alone, under a running import's progress, which counts them itself).
 */
export function BatchResultView({ result, rowsOnly = false }: { result: BatchResult; rowsOnly?: boolean }) {
  return (
    <Flex vertical gap={16}>
      {!rowsOnly && <Alert type={result.fail > 0 ? 'warning' : 'success'} showIcon title={fmt(routerMessages.memberBatchSummary, { ok: result.success, fail: result.fail })} />}
      <Table<BatchResultRow>
        size="small"
        rowKey={(r) => `${r.row}-${r.router_name}`}
        columns={columns}
        dataSource={result.rows}
        pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false, showLessItems: true }}
      />
    </Flex>
  );
}
