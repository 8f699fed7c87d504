import { fmt, LIMITS, routerMessages } from '@hublink/contract';
import { Alert, Card, Col, Empty, Row, theme } from 'antd';
import { TrafficChart } from './TrafficChart';
import type { StreamState } from './useTrafficStream';
import type { TrafficSeries } from './traffic';

function StreamNotice({ state }: { state: StreamState }) {
  switch (state.kind) {
    case 'unsupported':
      return <Alert type="error" showIcon title={routerMessages.routerTrafficNoWebSocket} />;
    case 'ended':
      return <Alert type="warning" showIcon title={fmt(routerMessages.routerTrafficEnded, { msg: state.msg })} />;
    case 'retrying':
      return <Alert type="info" showIcon title={fmt(routerMessages.routerTrafficRetry, { s: LIMITS.trafficReconnectMs / 1000 })} />;
    default:
      return null;
  }
}

/**
 * Per-interface inbound and outbound charts (spec 3 §2): every interface the device reported, and any
 * other the stream brings. `software`: the member is a software client, which is waited for as one.
 */
export function TrafficPanel({ interfaces, series, state, software = false }: { interfaces: readonly string[]; series: TrafficSeries; state: StreamState; software?: boolean }) {
  const { token } = theme.useToken();
  const names = [...new Set([...interfaces, ...Object.keys(series)])];
  // A stream that ended or never opened brings no first sample: the charts stop waiting for one.
  const waiting = state.kind !== 'ended' && state.kind !== 'unsupported';
  return (
    <Card variant="borderless" title={routerMessages.routerTrafficTitle}>
      <StreamNotice state={state} />
      {names.length === 0 && state.kind !== 'unsupported' && <Empty description={software ? routerMessages.routerTrafficWaitingSoftware : routerMessages.routerTrafficWaiting} />}
      {names.map((name) => (
        <Row key={name} gutter={[16, 16]} style={{ marginTop: 16 }}>
          <Col xs={24} lg={12}>
            <TrafficChart title={`${name} ${routerMessages.routerTrafficIn}`} points={series[name] ?? []} field="down" color={token.colorPrimary} waiting={waiting} />
          </Col>
          <Col xs={24} lg={12}>
            <TrafficChart title={`${name} ${routerMessages.routerTrafficOut}`} points={series[name] ?? []} field="upload" color={token.colorSuccess} waiting={waiting} />
          </Col>
        </Row>
      ))}
    </Card>
  );
}
