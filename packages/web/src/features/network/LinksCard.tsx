import { type NetworkLink, type NetworkMember, networkMessages } from '@hublink/contract';
import { Card, Segmented } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { LinkTable } from './LinkTable';

// ECharts loads only when the graph is first shown.
const TopologyView = lazy(() => import('./TopologyView').then((m) => ({ default: m.TopologyView })));

type View = 'list' | 'topology';

export interface LinksCardProps {
  networkNumber: string;
  /** Every center of the network (their lines tag the links). */
  centers: readonly NetworkMember[];
  /** The page of links shown, the count of all, the page and a page change (the server pages them). */
  links: readonly NetworkLink[];
  total: number;
  page: number;
  onPage: (page: number) => void;
  loading?: boolean;
}

/** The network's links, as a list or as the topology graph. */
export function LinksCard({ networkNumber, centers, links, total, page, onPage, loading }: LinksCardProps) {
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
        <LinkTable links={links} centers={centers} paging={{ page, total, onPage }} loading={loading} />
      ) : (
        <Suspense fallback={<PageLoading />}>
          <TopologyView networkNumber={networkNumber} />
        </Suspense>
      )}
    </Card>
  );
}
