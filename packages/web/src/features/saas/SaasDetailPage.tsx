import { SAAS_SHARED, type SaasDetail, saasInfo, saasMessages } from '@hublink/contract';
import { Badge, Button, Card, Descriptions, Flex, Space, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { AnalysisTab } from '../../components/device/AnalysisTab';
import { BandwidthDialog } from './BandwidthDialog';
import { bytes } from '../../components/device/format';
import { bandwidthText } from './format';
import { useCanEditDevices } from './rights';
import { SaasNoteDialog } from './SaasNoteDialog';
import { TrafficTab } from '../../components/device/TrafficTab';

const orNone = (v: string) => v || saasMessages.saasNone;

function InfoCard({ d, onNote, onBandwidth }: { d: SaasDetail; onNote?: () => void; onBandwidth?: () => void }) {
  return (
    <Card title={saasMessages.saasInfoTitle} size="small">
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
        <Descriptions.Item label={saasMessages.saasColName}>{d.router_name}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasColNote}>
          <Space size={4}>
            {orNone(d.note)}
            {onNote && (
              <Button type="link" size="small" onClick={onNote}>
                {saasMessages.saasEditNote}
              </Button>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasCategory}>{d.category || saasMessages.saasUncategorized}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasEdition}>{d.share === SAAS_SHARED ? saasMessages.saasShare : saasMessages.saasStandard}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasColOnline}>
          {d.online === 1 ? <Badge status="success" text={saasMessages.saasOnline} /> : <Badge status="default" text={saasMessages.saasOffline} />}
        </Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasColBandwidth}>
          <Space size={4}>
            {d.bandwidth > 0 ? bandwidthText(d.bandwidth) : <Tag>{bandwidthText(d.bandwidth)}</Tag>}
            {onBandwidth && (
              <Button type="link" size="small" onClick={onBandwidth}>
                {saasMessages.saasEditBandwidth}
              </Button>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasMaxBandwidth}>{`${d.max_bandwidth} ${saasMessages.saasBandwidthUnit}`}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasExpireDate}>{orNone(d.expire_date)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasOnlineTime}>{orNone(d.online_time)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasModel}>{orNone(d.router_model)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasIpv4}>{orNone(d.router_ipv4)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasMac}>{orNone(d.router_mac)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasVersion}>{orNone(d.version)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasInput}>{bytes(d.input)}</Descriptions.Item>
        <Descriptions.Item label={saasMessages.saasOut}>{bytes(d.out)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** /saas/detail?router_name (spec 3 §2): info, temporary bandwidth, addresses, and the traffic and analysis tabs. */
export default function SaasDetailPage() {
  const [params] = useSearchParams();
  const name = params.get('router_name') ?? '';
  const info = useApiQuery(saasInfo, { router_name: name }, { enabled: name !== '' });
  const canEdit = useCanEditDevices();
  const [noting, setNoting] = useState(false);
  const [sizing, setSizing] = useState(false);
  const d = info.data?.data;

  if (name === '') return <Navigate to="/saas/router" replace />;
  if (!d) return <PageContainer loading />;

  return (
    <PageContainer title={d.router_name} card={false}>
      <InfoCard d={d} onNote={canEdit ? () => setNoting(true) : undefined} onBandwidth={canEdit && d.share === SAAS_SHARED ? () => setSizing(true) : undefined} />
      <Flex gap={16} wrap>
        <Card title={saasMessages.saasTempTitle} size="small" style={{ flex: '1 1 320px' }}>
          {d.temp_bandwidth > 0 ? (
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={saasMessages.saasTempBandwidth}>{bandwidthText(d.temp_bandwidth)}</Descriptions.Item>
              <Descriptions.Item label={saasMessages.saasTempStart}>{orNone(d.temp_start_date)}</Descriptions.Item>
              <Descriptions.Item label={saasMessages.saasTempExpire}>{orNone(d.temp_expire_date)}</Descriptions.Item>
            </Descriptions>
          ) : (
            <Typography.Text type="secondary">{saasMessages.saasNone}</Typography.Text>
          )}
        </Card>
        <Card title={saasMessages.saasAddressTitle} size="small" style={{ flex: '1 1 320px' }}>
          {d.ip.length > 0 ? (
            <Space size={[4, 4]} wrap>
              {d.ip.map((ip) => (
                <Tag key={ip}>{ip}</Tag>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">{saasMessages.saasNone}</Typography.Text>
          )}
        </Card>
      </Flex>
      <Card size="small">
        <Tabs
          destroyOnHidden
          items={[
            { key: 'traffic', label: saasMessages.saasTabTraffic, children: <TrafficTab routerName={d.router_name} /> },
            { key: 'analysis', label: saasMessages.saasTabAnalysis, children: <AnalysisTab routerName={d.router_name} /> },
          ]}
        />
      </Card>
      <SaasNoteDialog device={noting ? d : undefined} onClose={() => setNoting(false)} />
      <BandwidthDialog device={sizing ? d : undefined} onClose={() => setSizing(false)} />
    </PageContainer>
  );
}
