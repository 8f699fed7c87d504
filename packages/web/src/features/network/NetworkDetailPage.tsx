import { PlusOutlined } from '@ant-design/icons';
import { LIMITS, NETWORK_STATUS, networkInfo, networkMessages } from '@hublink/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { DeliveryCard } from '../../components/diagnosis/DeliveryCard';
import { AddMemberDialog } from './AddMemberDialog';
import { ConfigMenu } from './ConfigMenu';
import { detailPaging } from './detailPaging';
import { DriftNotice } from './DriftNotice';
import { ExportMenu } from './ExportMenu';
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
 * or for the list when the tab has none (app/leaveStalePage.ts). The server sends the page of members
 * and the page of links shown, so a network of 5,000 members loads as fast as one of ten (issue 34); a
 * page change keeps the rows shown until the next page comes. Above the configuration history, the drift
 * from the last document applied to the network; 导出为文档 in the header (networks as code, issue 36).
 */
export default function NetworkDetailPage() {
  const [params] = useSearchParams();
  const number = params.get('network_number') ?? '';
  const [memberPage, setMemberPage] = useState(1);
  const [linkPage, setLinkPage] = useState(1);
  const paging = detailPaging(number, memberPage, linkPage);
  const info = useApiQuery(networkInfo, paging, { enabled: number !== '', placeholderData: keepPreviousData });
  const detail = info.data?.data;
  const status = useNetworkStatus(paging, detail !== undefined);
  const rights = useNetworkRights();
  const [adding, setAdding] = useState(false);
  const memberCount = detail?.member_count;
  const linkCount = detail?.link_count;

  // A removal that empties the last page shows the page before it.
  useEffect(() => {
    if (memberCount !== undefined) setMemberPage((p) => Math.min(p, lastPage(memberCount)));
  }, [memberCount]);
  useEffect(() => {
    if (linkCount !== undefined) setLinkPage((p) => Math.min(p, lastPage(linkCount)));
  }, [linkCount]);

  if (number === '') return <Navigate to="/network/lists" replace />;
  if (!detail) return <PageContainer loading />;

  const live = liveView(detail, status.isPlaceholderData ? undefined : status.data?.data);
  const usable = live.network_status !== NETWORK_STATUS.disabled;
  return (
    <PageContainer
      title={detail.network_name}
      card={false}
      extra={
        <>
          <ExportMenu networkNumber={detail.network_number} />
          {usable && <ConfigMenu detail={detail} canEdit={rights.edit} />}
        </>
      }
    >
      {!usable && <Alert type="warning" showIcon title={networkMessages.networkDisabledBanner} />}
      <NetworkSummary detail={detail} />
      <MemberTable
        networkNumber={detail.network_number}
        members={live.member}
        centers={live.centers}
        total={detail.member_count}
        page={memberPage}
        onPage={setMemberPage}
        loading={info.isPlaceholderData}
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
      <LinksCard
        networkNumber={detail.network_number}
        centers={live.centers}
        links={live.link}
        total={detail.link_count}
        page={linkPage}
        onPage={setLinkPage}
        loading={info.isPlaceholderData}
      />
      <DriftNotice networkNumber={detail.network_number} />
      <HistoryCard networkNumber={detail.network_number} canRollback={usable && rights.edit} />
      <DeliveryCard networkNumber={detail.network_number} />
      {usable && rights.edit && <AddMemberDialog detail={detail} open={adding} onClose={() => setAdding(false)} />}
    </PageContainer>
  );
}

const lastPage = (count: number) => Math.max(1, Math.ceil(count / LIMITS.pageSize));
