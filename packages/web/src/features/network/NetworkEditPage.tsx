import { networkConfig, routerMembers } from '@hublink/contract';
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
  const whole = useWholeNetwork(number, editing);
  const quota = config.data?.data;
  const candidates = members.data?.data;
  const network = whole.network && whole.members ? { network_number: whole.network.network_number, network_name: whole.network.network_name, member: whole.members } : undefined;
  const ready = quota && candidates && (!editing || network);
  return (
    <PageContainer loading={!ready}>
      {ready && <NetworkEditor key={number || 'new'} quota={quota} candidates={candidates} network={editing ? network : undefined} />}
    </PageContainer>
  );
}
