import { PlusOutlined } from '@ant-design/icons';
import { NETWORK_STATUS, networkInfo, networkMessages } from '@hublink/contract';
import { Alert, Button } from 'antd';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { DeliveryCard } from '../../components/diagnosis/DeliveryCard';
import { AddMemberDialog } from './AddMemberDialog';
import { ConfigMenu } from './ConfigMenu';
import { HistoryCard } from './HistoryCard';
import { LinksCard } from './LinksCard';
import { liveView } from './liveView';
import { MemberTable } from './MemberTable';
import { NetworkSummary } from './NetworkSummary';
import { useNetworkRights } from './permissions';
import { useNetworkStatus } from './useNetworkStatus';

/**
 * /network/detail?network_number (spec 2 §2): the summary, the members and the links of one network, with
 * online flags and links polled every 10 s. A network that is gone (204) leaves for the page before,
 * or for the list when the tab has none (app/leaveStalePage.ts).
 */
export default function NetworkDetailPage() {
  const [params] = useSearchParams();
  const number = params.get('network_number') ?? '';
  const info = useApiQuery(networkInfo, { network_number: number }, { enabled: number !== '' });
  const detail = info.data?.data;
  const status = useNetworkStatus(number, detail !== undefined);
  const rights = useNetworkRights();
  const [adding, setAdding] = useState(false);

  if (number === '') return <Navigate to="/network/lists" replace />;
  if (!detail) return <PageContainer loading />;

  const live = liveView(detail, status.data?.data);
  const usable = live.network_status !== NETWORK_STATUS.disabled;
  return (
    <PageContainer title={detail.network_name} card={false} extra={usable && <ConfigMenu detail={detail} canEdit={rights.edit} />}>
      {!usable && <Alert type="warning" showIcon title={networkMessages.networkDisabledBanner} />}
      <NetworkSummary detail={detail} />
      <MemberTable
        networkNumber={detail.network_number}
        members={live.member}
        device={live.device}
        canEdit={rights.edit}
        canSet={usable && rights.edit}
        extra={
          usable &&
          rights.edit && (
            <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              {networkMessages.networkAddMember}
            </Button>
          )
        }
      />
      <LinksCard members={live.member} links={live.link} />
      <HistoryCard networkNumber={detail.network_number} canRollback={usable && rights.edit} />
      <DeliveryCard networkNumber={detail.network_number} />
      {usable && rights.edit && <AddMemberDialog detail={detail} open={adding} onClose={() => setAdding(false)} />}
    </PageContainer>
  );
}
