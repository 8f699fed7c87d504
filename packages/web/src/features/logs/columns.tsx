import { M, type ConnectLogItem, type ConnectSessionItem, type OnlineLogItem, type SoftwareLoginItem } from '@hublink/contract';
import { Tag, type TableColumnsType } from 'antd';
import { duration } from '../../components/device/format';

// The columns of spec 3 §3 per log, headed as the exported sheets are (LOG_EXPORT_COLUMNS).

const TIME_WIDTH = 170;

export const SOFTWARE_LOGIN_COLUMNS: TableColumnsType<SoftwareLoginItem> = [
  { title: M.logMember, dataIndex: 'router_name', key: 'router_name' },
  { title: M.logIp, dataIndex: 'ip', key: 'ip' },
  { title: M.logOs, dataIndex: 'os', key: 'os' },
  { title: M.logVersion, dataIndex: 'version', key: 'version' },
  { title: M.logSysBrand, dataIndex: 'sys_brand', key: 'sys_brand' },
  { title: M.logSysModel, dataIndex: 'sys_model', key: 'sys_model' },
  { title: M.logSysVersion, dataIndex: 'sys_version', key: 'sys_version' },
  { title: M.logLoginTime, dataIndex: 'create_time', key: 'create_time', width: TIME_WIDTH },
];

const sessionColumns: TableColumnsType<OnlineLogItem> = [
  { title: M.logOrig, dataIndex: 'orig', key: 'orig' },
  { title: M.logVpnIp, dataIndex: 'vpn_ip', key: 'vpn_ip' },
  { title: M.logStart, dataIndex: 'start_time', key: 'start_time', width: TIME_WIDTH },
  { title: M.logEnd, dataIndex: 'end_time', key: 'end_time', width: TIME_WIDTH, render: (v: string) => v || <Tag color="green">{M.logOngoing}</Tag> },
  { title: M.logDuration, dataIndex: 'online_time', key: 'online_time', render: (v: number) => duration(v) },
];

export const ONLINE_COLUMNS: Record<'p2p' | 'pop', TableColumnsType<OnlineLogItem>> = {
  p2p: [
    { title: M.logMember, dataIndex: 'router_name', key: 'router_name' },
    { title: M.logNetwork, dataIndex: 'network_number', key: 'network_number' },
    { title: M.logPeer, dataIndex: 'link_router_name', key: 'link_router_name' },
    ...sessionColumns,
  ],
  pop: [
    { title: M.logMember, dataIndex: 'router_name', key: 'router_name' },
    { title: M.logPop, dataIndex: 'pop_name', key: 'pop_name' },
    { title: M.logArea, dataIndex: 'area', key: 'area' },
    ...sessionColumns,
  ],
};

export const CONNECT_COLUMNS: TableColumnsType<ConnectLogItem> = [
  { title: M.logMember, dataIndex: 'router_name', key: 'router_name' },
  { title: M.logRemoteIp, dataIndex: 'remote_ip', key: 'remote_ip' },
  { title: M.logRemotePort, dataIndex: 'remote_port', key: 'remote_port' },
  { title: M.logVersion, dataIndex: 'version', key: 'version' },
  {
    title: M.logConnectState,
    dataIndex: 'online',
    key: 'online',
    render: (v: number) => (v === 1 ? <Tag color="green">{M.logConnectUp}</Tag> : <Tag>{M.logConnectDown}</Tag>),
  },
  { title: M.logTime, dataIndex: 'create_time', key: 'create_time', width: TIME_WIDTH },
];

/** The connection log's variant (spec 3 §2, §3): the sessions of a mode with the connection that carried each. */
const connectionOfSession: TableColumnsType<ConnectSessionItem> = [
  { title: M.logRemoteIp, dataIndex: 'remote_ip', key: 'remote_ip', render: (v: string) => v || '-' },
  { title: M.logRemotePort, dataIndex: 'remote_port', key: 'remote_port', render: (v: number) => v || '-' },
  { title: M.logVersion, dataIndex: 'version', key: 'version', render: (v: string) => v || '-' },
];

export const CONNECT_SESSION_COLUMNS: Record<'p2p' | 'pop', TableColumnsType<ConnectSessionItem>> = {
  p2p: [...ONLINE_COLUMNS.p2p.slice(0, 3), ...connectionOfSession, ...sessionColumns] as TableColumnsType<ConnectSessionItem>,
  pop: [...ONLINE_COLUMNS.pop.slice(0, 3), ...connectionOfSession, ...sessionColumns] as TableColumnsType<ConnectSessionItem>,
};
