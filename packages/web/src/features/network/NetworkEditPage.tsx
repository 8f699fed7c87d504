import { networkConfig, routerMembers } from '@hublink/contract';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { useWholeNetwork } from '../../components/useWholeNetwork';
import { NetworkEditor } from './NetworkEditor';

/** /network/create, and /network/edit?network_number (titled 管理成员): name and members of a network. */
export default function NetworkEditPage() {
  const [params] = useSearchParams();
  const number = params.get('network_number') ?? '';
  const editing = number !== '';
  const config = useApiQuery(networkConfig);
  const members = useApiQuery(routerMembers);
  const { network: detail, members: all } = useWholeNetwork(number, editing);
  const quota = config.data?.data;
  const candidates = members.data?.data;
  // Kept while the answers are: the editor derives the members it started from (5,000 in a big network) from it.
  const network = useMemo(() => (detail && all ? { network_number: detail.network_number, network_name: detail.network_name, member: all } : undefined), [detail, all]);
  const ready = quota && candidates && (!editing || network);
  return (
    <PageContainer loading={!ready}>
      {ready && <NetworkEditor key={number || 'new'} quota={quota} candidates={candidates} network={editing ? network : undefined} />}
    </PageContainer>
  );
}
