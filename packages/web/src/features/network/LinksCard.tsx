import { type NetworkLink, type NetworkMember, networkMessages } from '@hublink/contract';
import { Card, Segmented } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { LinkTable } from './LinkTable';

// ECharts loads only when the graph is first shown.
const TopologyChart = lazy(() => import('./TopologyChart').then((m) => ({ default: m.TopologyChart })));

type View = 'list' | 'topology';

/** The network's links, as a list or as the topology graph. */
export function LinksCard({ members, links }: { members: readonly NetworkMember[]; links: readonly NetworkLink[] }) {
  const [view, setView] = useState<View>('list');
  return (
    <Card
      variant="borderless"
      title={networkMessages.networkLinks}
      role="region"
      aria-label={networkMessages.networkLinks}
      extra={
        <Segmented<View>
          aria-label={networkMessages.networkLinkView}
          value={view}
          onChange={setView}
          options={[
            { value: 'list', label: networkMessages.networkLinkList },
            { value: 'topology', label: networkMessages.networkLinkTopology },
          ]}
        />
      }
    >
      {view === 'list' ? (
        <LinkTable links={links} members={members} />
      ) : (
        <Suspense fallback={<PageLoading />}>
          <TopologyChart members={members} links={links} />
        </Suspense>
      )}
    </Card>
  );
}
