import { BM, fmt, frOv, LIMITS, type MemberDeviceState, type NetworkMember, networkMessages, networkSegmentsMessages, networkSettingsUiMessages, popMessages } from '@hublink/contract';
import { EditOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Empty, Flex, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import { useApiQuery } from '../../api/hooks';
import { useUser } from '../../session/user';
import { WideTable } from '../../components/WideTable';
import { defaultRouteLabel, LINES_FROM_CENTERS, onOffLabel, orDash, positionLabel } from './labels';
import { DefaultRouteDialog } from './DefaultRouteDialog';
import { DeviceStateCell } from './DeviceStateCell';
import { MemberActions } from './MemberActions';
import { MemberNoteCell } from './NoteDialog';
import { useCenterActions } from './CenterActions';
import { MemberOvDialog } from './MemberOvDialog';
import { QuaggaAllButtons } from './QuaggaAllButtons';
import { QuaggaSwitch } from './QuaggaSwitch';

/** Main and backup lines are told apart from two centers on. */

export interface MemberTableProps {
  networkNumber: string;
  /** The page of members shown. */
  members: NetworkMember[];
  /** Every center of the network, whatever the page (the lines and the center column follow them). */
  centers: NetworkMember[];
  /** The server's paging: how many members in all, the page shown, and a page change. */
  total: number;
  page: number;
  onPage: (page: number) => void;
  /** While the next page loads (the last one stays shown). */
  loading?: boolean;
  canEdit: boolean;
  /** The edit right on a usable network (status 1): default route, dynamic routing, member commands. */
  canSet: boolean;
  /** Toolbar at the right of the card's title (add member). */
  extra?: ReactNode;
  /** Each member's config and command state from the status poll, by router_name. */
  device?: Record<string, MemberDeviceState>;
}

/**
 * The members of a network (spec 2 §2) with the optional default-route column (edited in a dialog) and
 * dynamic-routing column (a switch per member, one-click enable and disable above the table).
 */
export function MemberTable({ networkNumber, members, centers, total, page, onPage, loading, canEdit, canSet, extra, device = {} }: MemberTableProps) {
  const auth = useUser()?.auth;
  const [routeOf, setRouteOf] = useState<NetworkMember | null>(null);
  const center = useCenterActions(networkNumber);
  const [ovOf, setOvOf] = useState<NetworkMember | null>(null);
  // The areas of the network's POP resource: members' POP areas are edited only when there are some.
  const areas = useApiQuery(frOv, { network_number: networkNumber }, { enabled: canSet, quiet: true }).data?.data ?? [];
  const quagga = auth?.quagga === 1;
  const lines = centers.length >= LINES_FROM_CENTERS;
  const columns = [
    {
      title: networkMessages.networkMemberName,
      key: 'name',
      render: (_: unknown, m: NetworkMember) => (
        <Flex gap={6} align="center">
          <Badge status={m.online !== 0 ? 'success' : 'default'} />
          {/* Plain text until the router detail page exists (the gateway issue makes hardware names links). */}
          {m.router_name}
        </Flex>
      ),
    },
    { title: networkMessages.networkMemberNote, dataIndex: 'note', key: 'note', render: (_: string, m: NetworkMember) => <MemberNoteCell member={m} /> },
    {
      title: networkMessages.networkPosition,
      key: 'position',
      render: (_: unknown, m: NetworkMember) => (
        // A narrow column puts the line's tag under the position rather than breaking 中心点 a character a line.
        <Flex gap={4} align="center" wrap>
          <span style={{ whiteSpace: 'nowrap' }}>{positionLabel(m.member_type)}</span>
          {lines && m.member_type === 'center' && (
            <Tag color={m.routing === 1 ? 'blue' : 'default'}>{m.routing === 1 ? networkMessages.networkLineMain : networkMessages.networkLineBackup}</Tag>
          )}
        </Flex>
      ),
    },
    {
      title: networkMessages.networkPopMain,
      key: 'pop_main',
      render: (_: unknown, m: NetworkMember) => (
        <Flex gap={4} align="center" wrap={false}>
          {orDash(m.ov_id.main_name)}
          {canSet && areas.length > 0 && (
            <Button type="link" size="small" icon={<EditOutlined />} aria-label={`${popMessages.popOvEdit} ${m.router_name}`} onClick={() => setOvOf(m)} />
          )}
        </Flex>
      ),
    },
    { title: networkMessages.networkPopBackup, key: 'pop_backup', render: (_: unknown, m: NetworkMember) => orDash(m.ov_id.backup_name) },
    ...(auth?.default_route === 1
      ? [
          {
            title: networkMessages.networkDefaultRoute,
            key: 'default_route',
            render: (_: unknown, m: NetworkMember) => (
              <Flex gap={4} align="center" wrap={false}>
                {defaultRouteLabel(m.default_route, m.metric)}
                {canSet && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={`${networkSettingsUiMessages.netSetRouteEdit} ${networkMessages.networkDefaultRoute} ${m.router_name}`}
                    onClick={() => setRouteOf(m)}
                  />
                )}
              </Flex>
            ),
          },
        ]
      : []),
    ...(quagga
      ? [
          {
            title: networkMessages.networkQuagga,
            key: 'quagga',
            render: (_: unknown, m: NetworkMember) => (canSet ? <QuaggaSwitch networkNumber={networkNumber} member={m} /> : onOffLabel(m.quagga)),
          },
        ]
      : []),
    // A center's segment settings sit in their own column: the fixed actions column must stay narrow on a phone.
    ...(canSet && centers.length > 0
      ? [{ title: networkSegmentsMessages.segUiCenterSettings, key: 'center_settings', render: (_: unknown, m: NetworkMember) => center.actions(m) ?? orDash('') }]
      : []),
    { title: networkMessages.networkDeviceColumn, key: 'device', render: (_: unknown, m: NetworkMember) => <DeviceStateCell state={device[m.router_name]} /> },
    {
      title: networkMessages.networkColActions,
      key: 'actions',
      // WideTable lets it scroll with the rest on a phone, where it would cover most of the table.
      fixed: 'right' as const,
      render: (_: unknown, m: NetworkMember) => <MemberActions networkNumber={networkNumber} member={m} canEdit={canEdit} canSet={canSet} />,
    },
  ];
  return (
    <Card variant="borderless" title={networkMessages.networkMembers} extra={extra} role="region" aria-label={networkMessages.networkMembers}>
      {quagga && canSet && (
        <Flex justify="end" wrap style={{ marginBottom: 8 }}>
          <QuaggaAllButtons networkNumber={networkNumber} />
        </Flex>
      )}
      <WideTable<NetworkMember>
        phoneFirst={['name', 'device', 'actions']}
        size="small"
        rowKey="router_name"
        columns={columns}
        dataSource={members}
        loading={loading}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} /> }}
        pagination={{ current: page, total, pageSize: LIMITS.pageSize, onChange: onPage, hideOnSinglePage: true, showSizeChanger: false, showTotal: (n) => fmt(BM.tableTotal, { n }) }}
      />
      {canSet && <DefaultRouteDialog networkNumber={networkNumber} member={routeOf} onClose={() => setRouteOf(null)} />}
      {canSet && center.dialogs}
      {canSet && <MemberOvDialog networkNumber={networkNumber} member={ovOf} areas={areas} onClose={() => setOvOf(null)} />}
    </Card>
  );
}
