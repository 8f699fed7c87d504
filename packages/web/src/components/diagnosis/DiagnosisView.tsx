import { ReloadOutlined } from '@ant-design/icons';
import { type Diagnosis, DIAGNOSIS_TITLE, type DiagnosisCause, diagnosisMessages, fmt, routerDiagnosis, routerMessages } from '@hublink/contract';
import { Alert, Badge, Button, Descriptions, Empty, Flex, Spin, Table, type TableColumnsType } from 'antd';
import { useApiQuery } from '../../api/hooks';

/** How each cause is shown: healthy in green, a degraded member in amber, an offline one in red. */
const ALERT_TYPE: Record<DiagnosisCause, 'success' | 'warning' | 'error' | 'info'> = {
  never_connected: 'info',
  wrong_secret: 'error',
  disabled: 'error',
  certificate: 'error',
  heartbeat_lost: 'error',
  tunnel_down: 'warning',
  failed_over: 'warning',
  config_behind: 'warning',
  healthy: 'success',
};

const orDash = (v: string) => v || '-';

type Row = Diagnosis['networks'][number];

const columns: TableColumnsType<Row> = [
  { title: routerMessages.routerStatusNetworks, dataIndex: 'network_name', key: 'network_name' },
  { title: diagnosisMessages.diagnosisConfigCompiled, dataIndex: 'config_version', key: 'config_version', render: (v: number) => (v > 0 ? `v${v}` : '-') },
  {
    title: diagnosisMessages.diagnosisConfigAcked,
    key: 'applied_version',
    render: (_: unknown, r: Row) =>
      r.applied_version === 0 ? (
        '-'
      ) : (
        <Badge status={r.applied_error ? 'error' : r.applied_version >= r.config_version ? 'success' : 'processing'} text={`v${r.applied_version}`} />
      ),
  },
  { title: diagnosisMessages.diagnosisAckTime, dataIndex: 'applied_time', key: 'applied_time', render: orDash },
  {
    title: diagnosisMessages.diagnosisTunnel,
    key: 'links',
    render: (_: unknown, r: Row) =>
      r.links.length === 0 ? (
        '-'
      ) : (
        <Flex vertical gap={2}>
          {r.links.map((l) => (
            <Badge key={l.center} status={l.vpn_online === 1 ? 'success' : 'error'} text={`${l.center} ${l.vpn_online === 1 ? routerMessages.routerStatusLinkUp : routerMessages.routerStatusLinkDown}`} />
          ))}
        </Flex>
      ),
  },
];

/** How the member's session is worded: a router 连接状态 已连接 / 未连接 (the default), a software client 登录状态 已登录 / 未登录. */
export interface SessionWords {
  label: string;
  on: string;
  off: string;
}

const ROUTER_SESSION: SessionWords = { label: routerMessages.routerInfoOnline, on: routerMessages.routerConnected, off: routerMessages.routerDisconnected };

/** 诊断 of one member (issue 18): the cause the gateway's records name, its facts, and its configs compiled vs acknowledged. */
export function DiagnosisView({ routerName, session = ROUTER_SESSION }: { routerName: string; session?: SessionWords }) {
  const q = useApiQuery(routerDiagnosis, { router_name: routerName }, { on204: 'stay' });
  const d = q.data?.data;
  if (q.isLoading) return <Spin />;
  if (!d) return <Empty />;
  const items = [
    { key: 'online', label: session.label, children: <Badge status={d.online === 1 ? 'success' : 'default'} text={d.online === 1 ? session.on : session.off} /> },
    { key: 'seen', label: diagnosisMessages.diagnosisLastSeen, children: orDash(d.last_seen) },
    { key: 'ip', label: diagnosisMessages.diagnosisRemoteIp, children: orDash(d.remote_ip) },
    { key: 'fail', label: diagnosisMessages.diagnosisLastFailure, children: d.failure_time ? `${d.failure_time} ${d.failure_ip}` : '-' },
  ];
  return (
    <Flex vertical gap={12} data-testid="diagnosis">
      <Alert type={ALERT_TYPE[d.cause]} showIcon title={fmt(diagnosisMessages.diagnosisCauseLine, { cause: DIAGNOSIS_TITLE[d.cause] })} description={d.message} />
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} items={items} />
      <Table<Row> size="small" rowKey="network_number" columns={columns} dataSource={d.networks} pagination={false} scroll={{ x: 'max-content' }} />
      <div>
        <Button icon={<ReloadOutlined />} loading={q.isFetching} onClick={() => void q.refetch()}>
          {diagnosisMessages.diagnosisRefresh}
        </Button>
      </div>
    </Flex>
  );
}
