import { type ConnectLogItem, type ConnectSessionItem, logsMessages, type OnlineLogItem, type SoftwareLoginItem } from '@hublink/contract';
import { Tag, type TableColumnsType } from 'antd';
import { duration } from '../../components/device/format';

// The columns of spec 3 §3 per log, headed as the exported sheets are (LOG_EXPORT_COLUMNS).

const TIME_WIDTH = 170;

export const SOFTWARE_LOGIN_COLUMNS: TableColumnsType<SoftwareLoginItem> = [
  { title: logsMessages.logMember, dataIndex: 'router_name', key: 'router_name' },
  { title: logsMessages.logIp, dataIndex: 'ip', key: 'ip' },
  { title: logsMessages.logOs, dataIndex: 'os', key: 'os' },
  { title: logsMessages.logVersion, dataIndex: 'version', key: 'version' },
  { title: logsMessages.logSysBrand, dataIndex: 'sys_brand', key: 'sys_brand' },
  { title: logsMessages.logSysModel, dataIndex: 'sys_model', key: 'sys_model' },
  { title: logsMessages.logSysVersion, dataIndex: 'sys_version', key: 'sys_version' },
  { title: logsMessages.logLoginTime, dataIndex: 'create_time', key: 'create_time', width: TIME_WIDTH },
];

const sessionColumns: TableColumnsType<OnlineLogItem> = [
  { title: logsMessages.logOrig, dataIndex: 'orig', key: 'orig' },
  { title: logsMessages.logVpnIp, dataIndex: 'vpn_ip', key: 'vpn_ip' },
  { title: logsMessages.logStart, dataIndex: 'start_time', key: 'start_time', width: TIME_WIDTH },
  { title: logsMessages.logEnd, dataIndex: 'end_time', key: 'end_time', width: TIME_WIDTH, render: (v: string) => v || <Tag color="green">{logsMessages.logOngoing}</Tag> },
  { title: logsMessages.logDuration, dataIndex: 'online_time', key: 'online_time', render: (v: number) => duration(v) },
];

export const ONLINE_COLUMNS: Record<'p2p' | 'pop', TableColumnsType<OnlineLogItem>> = {
  p2p: [
    { title: logsMessages.logMember, dataIndex: 'router_name', key: 'router_name' },
    { title: logsMessages.logNetwork, dataIndex: 'network_number', key: 'network_number' },
    { title: logsMessages.logPeer, dataIndex: 'link_router_name', key: 'link_router_name' },
    ...sessionColumns,
  ],
  pop: [
    { title: logsMessages.logMember, dataIndex: 'router_name', key: 'router_name' },
    { title: logsMessages.logPop, dataIndex: 'pop_name', key: 'pop_name' },
    { title: logsMessages.logArea, dataIndex: 'area', key: 'area' },
    ...sessionColumns,
  ],
};

export const CONNECT_COLUMNS: TableColumnsType<ConnectLogItem> = [
  { title: logsMessages.logMember, dataIndex: 'router_name', key: 'router_name' },
  { title: logsMessages.logRemoteIp, dataIndex: 'remote_ip', key: 'remote_ip' },
  { title: logsMessages.logRemotePort, dataIndex: 'remote_port', key: 'remote_port' },
  { title: logsMessages.logVersion, dataIndex: 'version', key: 'version' },
  {
    title: logsMessages.logConnectState,
    dataIndex: 'online',
    key: 'online',
    render: (v: number) => (v === 1 ? <Tag color="green">{logsMessages.logConnectUp}</Tag> : <Tag>{logsMessages.logConnectDown}</Tag>),
  },
  { title: logsMessages.logTime, dataIndex: 'create_time', key: 'create_time', width: TIME_WIDTH },
];

/** The connection log's variant (spec 3 §2, §3): the sessions of a mode with the connection that carried each. */
const connectionOfSession: TableColumnsType<ConnectSessionItem> = [
  { title: logsMessages.logRemoteIp, dataIndex: 'remote_ip', key: 'remote_ip', render: (v: string) => v || '-' },
  { title: logsMessages.logRemotePort, dataIndex: 'remote_port', key: 'remote_port', render: (v: number) => v || '-' },
  { title: logsMessages.logVersion, dataIndex: 'version', key: 'version', render: (v: string) => v || '-' },
];

export const CONNECT_SESSION_COLUMNS: Record<'p2p' | 'pop', TableColumnsType<ConnectSessionItem>> = {
  p2p: [...ONLINE_COLUMNS.p2p.slice(0, 3), ...connectionOfSession, ...sessionColumns] as TableColumnsType<ConnectSessionItem>,
  pop: [...ONLINE_COLUMNS.pop.slice(0, 3), ...connectionOfSession, ...sessionColumns] as TableColumnsType<ConnectSessionItem>,
};
