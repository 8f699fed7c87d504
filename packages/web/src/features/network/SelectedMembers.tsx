import { LIMITS, M, type MemberType } from '@hublink/contract';
import { Button, Card, Empty, Select, Table } from 'antd';
import { positionLabel } from './labels';
import { canBeCenter, type Picked } from './memberPicker';
import { NoteLine } from './NoteLine';

export interface SelectedMembersProps {
  picked: Picked[];
  onRemove: (name: string) => void;
  onPosition: (name: string, position: MemberType) => void;
}

const POSITIONS: MemberType[] = ['center', 'point'];

/** The members chosen so far, with their position (software always a point) and a remove button. */
export function SelectedMembers({ picked, onRemove, onPosition }: SelectedMembersProps) {
  const columns = [
    { title: M.networkMemberName, dataIndex: 'router_name', key: 'router_name' },
    { title: M.networkMemberNote, dataIndex: 'note', key: 'note', ellipsis: { showTitle: false }, render: (note: string) => <NoteLine note={note} /> },
    {
      title: M.networkPosition,
      key: 'position',
      render: (_: unknown, p: Picked) => (
        <Select<MemberType>
          size="small"
          value={p.member_type}
          disabled={!canBeCenter(p)}
          onChange={(v) => onPosition(p.router_name, v)}
          options={POSITIONS.map((v) => ({ value: v, label: positionLabel(v) }))}
          aria-label={`${M.networkPosition} ${p.router_name}`}
          style={{ width: 110 }}
        />
      ),
    },
    {
      title: M.networkColActions,
      key: 'actions',
      render: (_: unknown, p: Picked) => (
        <Button type="link" size="small" danger aria-label={`${M.networkRemove} ${p.router_name}`} onClick={() => onRemove(p.router_name)}>
          {M.networkRemove}
        </Button>
      ),
    },
  ];
  return (
    <Card size="small" title={M.networkSelected} role="region" aria-label={M.networkSelected}>
      <Table<Picked>
        size="small"
        rowKey="router_name"
        columns={columns}
        dataSource={picked}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M.networkNoneSelected} /> }}
        pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
      />
    </Card>
  );
}
