import { SUPPORT_STATUS, supportStatusLabel } from '@hublink/contract';
import { Tag } from 'antd';

const COLORS: Record<number, string> = {
  [SUPPORT_STATUS.pending]: 'orange',
  [SUPPORT_STATUS.replied]: 'blue',
  [SUPPORT_STATUS.closed]: 'default',
};

/** A ticket's status as a coloured tag: waiting for the service, answered, closed. */
export function StatusTag({ status }: { status: number }) {
  return <Tag color={COLORS[status] ?? 'default'}>{supportStatusLabel(status)}</Tag>;
}
