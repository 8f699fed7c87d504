import { BM, fmt, LIMITS, type NetworkLink, type NetworkMember, networkMessages } from '@hublink/contract';
import { Badge, Empty, Flex, Grid, Tag } from 'antd';
import { WideTable } from '../../components/WideTable';
import { LINES_FROM_CENTERS, orDash } from './labels';

const nameWithNote = (name: string, note: string) => (note ? fmt(networkMessages.networkNameWithNote, { name, note }) : name);

/** Which way an up link runs, as its point's device said (issue 30): 直连, 经POP(area), or a dash when it did not say. */
const pathText = (l: NetworkLink) => (l.path === 'pop' ? fmt(networkMessages.networkLinkViaPop, { area: l.pop_area ?? '' }) : l.path === 'center' ? networkMessages.networkLinkDirect : orDash(''));

/**
 * The links of the network as a list: point, center (with its line, main or backup, as the member table
 * shows it: a point on its backup line is failed over), status, path (direct or through a POP area's relay),
 * virtual IP and since when. The status
 * comes right after the center it concerns, so a phone shows which tunnel is up without scrolling (there
 * the line's tag goes under the center's name).
 */
export function LinkTable({
  links,
  centers = [],
  paging,
  loading,
}: {
  links: readonly NetworkLink[];
  /** The network's centers: their lines (main or backup) tag the links. */
  centers?: readonly NetworkMember[];
  /** The server's paging of the links (the page shown, the total, a page change); without it `links` are all of them. */
  paging?: { page: number; total: number; onPage: (page: number) => void };
  loading?: boolean;
}) {
  const routing = new Map(centers.length >= LINES_FROM_CENTERS ? centers.map((c) => [c.router_name, c.routing]) : []);
  const narrow = Grid.useBreakpoint().sm === false;
  const columns = [
    { title: networkMessages.networkLinkPoint, key: 'point', render: (_: unknown, l: NetworkLink) => nameWithNote(l.router_name, l.router_name_note) },
    {
      title: networkMessages.networkLinkCenter,
      key: 'center',
      render: (_: unknown, l: NetworkLink) => {
        const line = routing.get(l.center_router_name);
        return (
          <Flex gap={4} vertical={narrow} align={narrow ? 'flex-start' : 'center'}>
            {nameWithNote(l.center_router_name, l.center_router_name_note)}
            {line !== undefined && <Tag color={line === 1 ? 'blue' : 'default'}>{line === 1 ? networkMessages.networkLineMain : networkMessages.networkLineBackup}</Tag>}
          </Flex>
        );
      },
    },
    {
      title: networkMessages.networkLinkStatus,
      dataIndex: 'vpn_online',
      key: 'vpn_online',
      render: (v: number) => (v !== 0 ? <Badge status="success" text={networkMessages.networkOnline} /> : <Badge status="error" text={networkMessages.networkOffline} />),
    },
    { title: networkMessages.networkLinkPath, key: 'path', render: (_: unknown, l: NetworkLink) => pathText(l) },
    { title: networkMessages.networkLinkIp, dataIndex: 'vpn_ip', key: 'vpn_ip', render: orDash },
    { title: networkMessages.networkLinkSince, dataIndex: 'vpn_online_time', key: 'vpn_online_time', render: orDash },
  ];
  return (
    <WideTable<NetworkLink>
      size="small"
      rowKey={(l) => `${l.router_name}→${l.center_router_name}`}
      columns={columns}
      dataSource={links as NetworkLink[]}
      loading={loading}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} /> }}
      pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false, showTotal: (n) => fmt(BM.tableTotal, { n }), ...(paging && { current: paging.page, total: paging.total, onChange: paging.onPage }) }}
    />
  );
}
