import { type RouterInterface, routerMessages } from '@hublink/contract';
import { Card, Table, type TableColumnsType } from 'antd';

const PROTOCOLS: Record<string, string> = { static: routerMessages.routerIfStatic, dhcp: routerMessages.routerIfDhcp, pppoe: routerMessages.routerIfPppoe };

const columns: TableColumnsType<RouterInterface> = [
  { title: routerMessages.routerIfName, dataIndex: 'interface', key: 'interface' },
  { title: routerMessages.routerIfProtocol, dataIndex: 'protocol', key: 'protocol', render: (v: string) => PROTOCOLS[v] ?? v },
  { title: routerMessages.routerIfIpv4, dataIndex: 'ipv4', key: 'ipv4', render: (v: string) => v || '-' },
  { title: routerMessages.routerIfMask, dataIndex: 'ipv4_subnet_mask', key: 'ipv4_subnet_mask', render: (v: string) => v || '-' },
  { title: routerMessages.routerIfMtu, dataIndex: 'mtu', key: 'mtu' },
];

/** The interfaces the device reported when it connected (spec 3 §3 Interface). */
export function InterfaceTable({ interfaces }: { interfaces: readonly RouterInterface[] }) {
  return (
    <Card variant="borderless" title={routerMessages.routerInterfacesTitle}>
      <Table<RouterInterface> rowKey="interface_uuid" columns={columns} dataSource={[...interfaces]} pagination={false} size="small" scroll={{ x: 'max-content' }} />
    </Card>
  );
}
