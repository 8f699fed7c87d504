import { LIMITS, type MemberType, networkMessages } from '@hublink/contract';
import { Button, Card, Empty, Flex, Select, Table, Typography } from 'antd';
import { positionLabel } from './labels';
import { canBeCenter, type Picked } from './memberPicker';
import { NoteLine } from './NoteLine';

export interface SelectedMembersProps {
  picked: Picked[];
  onRemove: (name: string) => void;
  onPosition: (name: string, position: MemberType) => void;
}

const POSITIONS: MemberType[] = ['center', 'point'];

/** The members chosen so far (name, note under it), with their position (software always a point) and a remove button. */
export function SelectedMembers({ picked, onRemove, onPosition }: SelectedMembersProps) {
  // Fixed widths for the select and the button; the name takes the rest and ends in an ellipsis (the whole name
  // on hover) rather than breaking mid-word, with the note under it: nothing overlaps at 390 px.
  const columns = [
    {
      title: networkMessages.networkMemberName,
      key: 'router_name',
      render: (_: unknown, p: Picked) => (
        <Flex vertical>
          <Typography.Text ellipsis={{ tooltip: p.router_name }}>{p.router_name}</Typography.Text>
          <NoteLine note={p.note} secondary />
        </Flex>
      ),
    },
    {
      title: networkMessages.networkPosition,
      key: 'position',
      width: 112,
      render: (_: unknown, p: Picked) => (
        <Select<MemberType>
          size="small"
          value={p.member_type}
          disabled={!canBeCenter(p)}
          onChange={(v) => onPosition(p.router_name, v)}
          options={POSITIONS.map((v) => ({ value: v, label: positionLabel(v) }))}
          aria-label={`${networkMessages.networkPosition} ${p.router_name}`}
          style={{ width: '100%' }}
        />
      ),
    },
    {
      title: networkMessages.networkColActions,
      key: 'actions',
      width: 72,
      render: (_: unknown, p: Picked) => (
        <Button type="link" size="small" danger aria-label={`${networkMessages.networkRemove} ${p.router_name}`} onClick={() => onRemove(p.router_name)}>
          {networkMessages.networkRemove}
        </Button>
      ),
    },
  ];
  return (
    <Card size="small" title={networkMessages.networkSelected} role="region" aria-label={networkMessages.networkSelected}>
      <Table<Picked>
        size="small"
        rowKey="router_name"
        tableLayout="fixed"
        columns={columns}
        dataSource={picked}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={networkMessages.networkNoneSelected} /> }}
        pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
      />
    </Card>
  );
}
