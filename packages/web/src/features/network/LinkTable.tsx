import { fmt, LIMITS, M, type NetworkLink } from '@hublink/contract';
import { Badge, Empty, Table } from 'antd';
import { orDash } from './labels';

const nameWithNote = (name: string, note: string) => (note ? fmt(M.networkNameWithNote, { name, note }) : name);

/**
 * The links of the network as a list: point, center, status, virtual IP and since when. The status comes
 * right after the center it concerns, so a phone shows which tunnel is up without scrolling the table.
 */
export function LinkTable({ links, loading }: { links: readonly NetworkLink[]; loading?: boolean }) {
  const columns = [
    { title: M.networkLinkPoint, key: 'point', render: (_: unknown, l: NetworkLink) => nameWithNote(l.router_name, l.router_name_note) },
    { title: M.networkLinkCenter, key: 'center', render: (_: unknown, l: NetworkLink) => nameWithNote(l.center_router_name, l.center_router_name_note) },
    {
      title: M.networkLinkStatus,
      dataIndex: 'vpn_online',
      key: 'vpn_online',
      render: (v: number) => (v !== 0 ? <Badge status="success" text={M.networkOnline} /> : <Badge status="error" text={M.networkOffline} />),
    },
    { title: M.networkLinkIp, dataIndex: 'vpn_ip', key: 'vpn_ip', render: orDash },
    { title: M.networkLinkSince, dataIndex: 'vpn_online_time', key: 'vpn_online_time', render: orDash },
  ];
  return (
    <Table<NetworkLink>
      size="small"
      rowKey={(l) => `${l.router_name}→${l.center_router_name}`}
      columns={columns}
      dataSource={links as NetworkLink[]}
      loading={loading}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M.empty} /> }}
      pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={{ x: 'max-content' }}
    />
  );
}
