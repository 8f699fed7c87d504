import { CODE, routerMessages, saasTraffic } from '@hublink/contract';
import { Card, Tabs } from 'antd';
import { useEffect } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { AnalysisTab } from '../../../components/device/AnalysisTab';
import { TrafficTab } from '../../../components/device/TrafficTab';

/**
 * The second hardware detail view (spec 3 §2): the traffic tab (chart and connection table) and the
 * analysis tab. A member the server does not chart (204: a software member, or gone) calls onGone.
 */
export function HardwareTrafficView({ routerName, onGone }: { routerName: string; onGone: () => void }) {
  // The traffic tab asks the same call (one request); this copy only watches for the 204.
  const probe = useApiQuery(saasTraffic, { router_name: routerName }, { on204: 'stay' });
  const gone = probe.error?.envelope.code === CODE.notFound;
  useEffect(() => {
    if (gone) onGone();
  }, [gone, onGone]);

  return (
    <Card size="small" variant="borderless">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'traffic', label: routerMessages.routerTabTraffic, children: <TrafficTab routerName={routerName} /> },
          { key: 'analysis', label: routerMessages.routerTabAnalysis, children: <AnalysisTab routerName={routerName} /> },
        ]}
      />
    </Card>
  );
}
