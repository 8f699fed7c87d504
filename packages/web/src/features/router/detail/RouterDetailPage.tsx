import { CODE, routerInfo } from '@hublink/contract';
import { Flex } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import { consoleEntryBehind } from '../../../session/consoleHistory';
import { PageContainer } from '../../../components/PageContainer';
import { DiagnosisDialog } from '../../../components/diagnosis/DiagnosisDialog';
import { NoteDialog } from '../NoteDialog';
import { useMemberRights } from '../rights';
import { DeviceStatusView } from './DeviceStatusView';
import { HardwareTrafficView } from './HardwareTrafficView';
import { InterfaceTable } from './InterfaceTable';
import { NetworksCard } from './NetworksCard';
import { OnboardingHint } from './OnboardingHint';
import { RouterInfoCard } from './RouterInfoCard';
import { TrafficPanel } from './TrafficPanel';
import { isSoftwareMember, sessionWording } from './memberWording';
import { useTrafficStream } from './useTrafficStream';
import { viewOf, viewsFor, type RouterView } from './views';
import { ViewSwitch } from './ViewSwitch';

export const MEMBER_LIST_PATH = '/router/lists';

/**
 * /router/detail?router_name (spec 3 §2): the router's info, its interfaces, live per-interface
 * traffic charts and its networks, for a hardware or a software member (spec 3 §2: a software row
 * opens it too). &view=traffic is the second hardware view (traffic and analysis; not offered for a
 * software member), &view=status the device status view. A software member's page is worded as the
 * software member list is (its account, 登录状态, no model, address or MAC). A member that is gone
 * (204) sends the user to the member list; without router_name the page goes back, and so does the
 * second view when the server has no charts for the member (204).
 */
export default function RouterDetailPage() {
  const [params, setParams] = useSearchParams();
  const name = params.get('router_name') ?? '';
  const navigate = useNavigate();
  const info = useApiQuery(routerInfo, { router_name: name }, { enabled: name !== '', on204: 'stay' });
  const detail = info.data?.data;
  const views = detail ? viewsFor(detail.router_type) : undefined;
  // A software member opened with view=traffic (a hardware view) shows its detail.
  const asked = viewOf(params.get('view'));
  const view = views && !views.includes(asked) ? 'detail' : asked;
  const stream = useTrafficStream(name, detail !== undefined && view !== 'traffic');
  const rights = useMemberRights();
  const [editing, setEditing] = useState(false);
  const [diagnosing, setDiagnosing] = useState(false);

  const goBack = useCallback(() => void (consoleEntryBehind() ? navigate(-1) : navigate(MEMBER_LIST_PATH, { replace: true })), [navigate]);
  useEffect(() => {
    if (name === '') goBack();
  }, [name, goBack]);

  const switchTo = (next: RouterView) =>
    setParams((p) => {
      const q = new URLSearchParams(p);
      if (next === 'detail') q.delete('view');
      else q.set('view', next);
      return q;
    });

  if (info.error?.envelope.code === CODE.notFound) return <Navigate to={MEMBER_LIST_PATH} replace />;
  if (!detail) return <PageContainer loading />;

  return (
    <PageContainer title={detail.router_name} card={false}>
      <Flex vertical gap={16}>
        <div>
          <ViewSwitch value={view} onChange={switchTo} views={views} software={isSoftwareMember(detail)} />
        </div>
        {view === 'traffic' && <HardwareTrafficView routerName={detail.router_name} onGone={goBack} />}
        {view === 'status' && <DeviceStatusView detail={detail} stream={stream} canEdit={rights.edit} onEditNote={() => setEditing(true)} />}
        {view === 'detail' && (
          <>
            <OnboardingHint detail={detail} />
            <RouterInfoCard detail={detail} canEdit={rights.edit} onEditNote={() => setEditing(true)} onDiagnose={() => setDiagnosing(true)} />
            <InterfaceTable interfaces={detail.interfaces} />
            <TrafficPanel interfaces={detail.interfaces.map((i) => i.interface)} series={stream.series} state={stream.state} software={isSoftwareMember(detail)} />
            <NetworksCard networks={detail.network} />
          </>
        )}
      </Flex>
      <NoteDialog member={editing ? detail : undefined} onClose={() => setEditing(false)} />
      <DiagnosisDialog routerName={diagnosing ? detail.router_name : undefined} session={sessionWording(detail)} onClose={() => setDiagnosing(false)} />
    </PageContainer>
  );
}
