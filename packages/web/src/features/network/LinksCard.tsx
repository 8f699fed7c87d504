import { M, type NetworkLink, type NetworkMember } from '@hublink/contract';
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
      title={M.networkLinks}
      role="region"
      aria-label={M.networkLinks}
      extra={
        <Segmented<View>
          aria-label={M.networkLinkView}
          value={view}
          onChange={setView}
          options={[
            { value: 'list', label: M.networkLinkList },
            { value: 'topology', label: M.networkLinkTopology },
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
