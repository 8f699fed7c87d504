import { LIMITS, M, ROUTER_TYPE, type NetworkMember } from '@hublink/contract';
import { Badge, Card, Empty, Flex, Table, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useUser } from '../../app/user';
import { defaultRouteLabel, onOffLabel, orDash, positionLabel, routerDetailPath, shortNote } from './labels';
import { MemberActions } from './MemberActions';

/** Main and backup lines are told apart from two centers on. */
const LINES_FROM_CENTERS = 2;

export interface MemberTableProps {
  networkNumber: string;
  members: NetworkMember[];
  canEdit: boolean;
  /** Toolbar at the right of the card's title (add member). */
  extra?: ReactNode;
}

/** The members of a network (spec 2 §2) with the optional default-route and dynamic-routing columns. */
export function MemberTable({ networkNumber, members, canEdit, extra }: MemberTableProps) {
  const auth = useUser()?.auth;
  const lines = members.filter((m) => m.member_type === 'center').length >= LINES_FROM_CENTERS;
  const columns = [
    {
      title: M.networkMemberName,
      key: 'name',
      render: (_: unknown, m: NetworkMember) => (
        <Flex gap={6} align="center">
          <Badge status={m.online !== 0 ? 'success' : 'default'} />
          {m.router_type === ROUTER_TYPE.hardware ? (
            <a href={routerDetailPath(m.router_name)} target="_blank" rel="noopener noreferrer">
              {m.router_name}
            </a>
          ) : (
            m.router_name
          )}
        </Flex>
      ),
    },
    { title: M.networkMemberNote, dataIndex: 'note', key: 'note', render: (n: string) => <span title={n}>{orDash(shortNote(n))}</span> },
    {
      title: M.networkPosition,
      key: 'position',
      render: (_: unknown, m: NetworkMember) => (
        <Flex gap={4} align="center">
          {positionLabel(m.member_type)}
          {lines && m.member_type === 'center' && (
            <Tag color={m.routing === 1 ? 'blue' : 'default'}>{m.routing === 1 ? M.networkLineMain : M.networkLineBackup}</Tag>
          )}
        </Flex>
      ),
    },
    { title: M.networkPopMain, key: 'pop_main', render: (_: unknown, m: NetworkMember) => orDash(m.ov_id.main_name) },
    { title: M.networkPopBackup, key: 'pop_backup', render: (_: unknown, m: NetworkMember) => orDash(m.ov_id.backup_name) },
    ...(auth?.default_route === 1
      ? [{ title: M.networkDefaultRoute, key: 'default_route', render: (_: unknown, m: NetworkMember) => defaultRouteLabel(m.default_route, m.metric) }]
      : []),
    ...(auth?.quagga === 1 ? [{ title: M.networkQuagga, dataIndex: 'quagga', key: 'quagga', render: onOffLabel }] : []),
    {
      title: M.networkColActions,
      key: 'actions',
      render: (_: unknown, m: NetworkMember) => <MemberActions networkNumber={networkNumber} member={m} canEdit={canEdit} />,
    },
  ];
  return (
    <Card variant="borderless" title={M.networkMembers} extra={extra} role="region" aria-label={M.networkMembers}>
      <Table<NetworkMember>
        size="small"
        rowKey="router_name"
        columns={columns}
        dataSource={members}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M.empty} /> }}
        pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
