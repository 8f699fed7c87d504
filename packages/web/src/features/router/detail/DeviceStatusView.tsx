import { type RouterDetail, routerMessages } from '@hublink/contract';
import { Badge, Card, Col, Descriptions, Flex, Row } from 'antd';
import { InterfaceTable } from './InterfaceTable';
import { NetworkCarousel } from './NetworkCarousel';
import { RouterInfoCard } from './RouterInfoCard';
import { TrafficPanel } from './TrafficPanel';
import { isSoftwareMember, sessionWording } from './memberWording';
import type { useTrafficStream } from './useTrafficStream';

type Stream = ReturnType<typeof useTrafficStream>;

function NetworkStatusCard({ detail }: { detail: RouterDetail }) {
  const online = detail.online_status === 1;
  const session = sessionWording(detail);
  return (
    <Card variant="borderless" title={routerMessages.routerStatusTitle} style={{ height: '100%' }}>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={session.label}>
          <Badge status={online ? 'success' : 'default'} text={online ? session.on : session.off} />
        </Descriptions.Item>
        <Descriptions.Item label={session.since}>{detail.online_time || '-'}</Descriptions.Item>
        <Descriptions.Item label={routerMessages.routerStatusNetworks}>{detail.network.length}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/**
 * The device status view (spec 3 §2): basic info, network status, the carousel of its networks, the
 * interface settings and the live per-interface charts; the page holds the note dialog.
 */
export function DeviceStatusView({ detail, stream, canEdit, onEditNote }: { detail: RouterDetail; stream: Stream; canEdit: boolean; onEditNote: () => void }) {
  return (
    <Flex vertical gap={16}>
      <RouterInfoCard detail={detail} canEdit={canEdit} onEditNote={onEditNote} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <NetworkStatusCard detail={detail} />
        </Col>
        <Col xs={24} lg={14}>
          <NetworkCarousel routerName={detail.router_name} networks={detail.network} />
        </Col>
      </Row>
      <InterfaceTable interfaces={detail.interfaces} />
      <TrafficPanel interfaces={detail.interfaces.map((i) => i.interface)} series={stream.series} state={stream.state} software={isSoftwareMember(detail)} />
    </Flex>
  );
}
