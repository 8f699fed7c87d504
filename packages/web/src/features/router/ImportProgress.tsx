import { fmt, type ImportStatus, routerMessages } from '@hublink/contract';
import { Flex, Progress, Typography } from 'antd';

/** A running import: a bar of the rows done, '已处理 N / T 行，失败 F 行', and that closing does not stop it. */
export function ImportProgress({ status }: { status: ImportStatus }) {
  const percent = status.total > 0 ? Math.floor((status.done / status.total) * 100) : 0;
  return (
    <Flex vertical gap={12} data-testid="import-progress">
      <Progress percent={percent} status="active" />
      <Typography.Text>{fmt(routerMessages.importProgress, { done: status.done, total: status.total, fail: status.fail })}</Typography.Text>
      <Typography.Text type="secondary">{routerMessages.importRunningHint}</Typography.Text>
    </Flex>
  );
}
