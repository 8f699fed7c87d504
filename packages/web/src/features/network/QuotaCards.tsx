import { fmt, networkConfig, networkMessages } from '@hublink/contract';
import { Button, Card, Col, Row, Statistic } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { levelLabel } from './labels';
import { warnNoUpgrade } from './upgrade';

/** The service-level card (with upgrade) and the used/limit card above the network list. */
export function QuotaCards() {
  const config = useApiQuery(networkConfig);
  const q = config.data?.data;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={12}>
        <Card variant="borderless" loading={config.isLoading}>
          <Statistic
            title={networkMessages.networkServiceLevel}
            value={q ? levelLabel(q.network_level) : '-'}
            suffix={
              <Button type="link" size="small" onClick={warnNoUpgrade}>
                {networkMessages.networkUpgrade}
              </Button>
            }
          />
        </Card>
      </Col>
      <Col xs={24} md={12}>
        <Card variant="borderless" loading={config.isLoading}>
          <Statistic
            title={networkMessages.networkUsage}
            value={q ? fmt(networkMessages.networkUsed, { use: q.network_router_use, count: q.network_router_count }) : '-'}
          />
        </Card>
      </Col>
    </Row>
  );
}
