import { CODE, routerInfo } from '@hublink/contract';
import { Flex } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import { consoleEntryBehind } from '../../../app/leaveStalePage';
import { PageContainer } from '../../../components/PageContainer';
import { NoteDialog } from '../NoteDialog';
import { useMemberRights } from '../rights';
import { InterfaceTable } from './InterfaceTable';
import { NetworksCard } from './NetworksCard';
import { RouterInfoCard } from './RouterInfoCard';
import { TrafficPanel } from './TrafficPanel';
import { useTrafficStream } from './useTrafficStream';

export const MEMBER_LIST_PATH = '/router/lists';

/**
 * /router/detail?router_name (spec 3 §2): the router's info, its interfaces, live per-interface
 * traffic charts and its networks. A member that is gone (204) sends the user to the member list;
 * without router_name the page goes back.
 */
export default function RouterDetailPage() {
  const [params] = useSearchParams();
  const name = params.get('router_name') ?? '';
  const navigate = useNavigate();
  const info = useApiQuery(routerInfo, { router_name: name }, { enabled: name !== '', on204: 'stay' });
  const detail = info.data?.data;
  const stream = useTrafficStream(name, detail !== undefined);
  const rights = useMemberRights();
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    if (name === '') void (consoleEntryBehind() ? navigate(-1) : navigate(MEMBER_LIST_PATH, { replace: true }));
  }, [name, navigate]);

  if (info.error?.envelope.code === CODE.notFound) return <Navigate to={MEMBER_LIST_PATH} replace />;
  if (!detail) return <PageContainer loading />;

  return (
    <PageContainer title={detail.router_name} card={false}>
      <Flex vertical gap={16}>
        <RouterInfoCard detail={detail} canEdit={rights.edit} onEditNote={() => setEditing(true)} />
        <InterfaceTable interfaces={detail.interfaces} />
        <TrafficPanel interfaces={detail.interfaces.map((i) => i.interface)} series={stream.series} state={stream.state} />
        <NetworksCard networks={detail.network} />
      </Flex>
      <NoteDialog member={editing ? detail : undefined} onClose={() => setEditing(false)} />
    </PageContainer>
  );
}
