import { diagnosisMessages, fmt, LIMITS, networkDelivery, routerMessages } from '@hublink/contract';
import { Badge, Button, Card, Descriptions, Flex, Modal, Table, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';

type Behind = { router_name: string; online: number; config_version: number; applied_version: number; applied_error: string };

const columns: TableColumnsType<Behind> = [
  { title: routerMessages.memberColAccount, dataIndex: 'router_name', key: 'router_name' },
  { title: routerMessages.memberColOnline, dataIndex: 'online', key: 'online', render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? routerMessages.memberOnline : routerMessages.memberOffline} /> },
  { title: diagnosisMessages.diagnosisConfigCompiled, dataIndex: 'config_version', key: 'config_version', render: (v: number) => `v${v}` },
  {
    title: diagnosisMessages.diagnosisConfigAcked,
    key: 'applied_version',
    render: (_: unknown, r: Behind) => (r.applied_error ? <Typography.Text type="danger">{r.applied_error}</Typography.Text> : r.applied_version > 0 ? `v${r.applied_version}` : '-'),
  },
];

const secondsText = (n: number | null) => (n === null ? '-' : fmt(diagnosisMessages.deliverySeconds, { n }));

/** The members behind, a page at a time from the server (a network of 5,000 may have them all behind). */
function BehindTable({ networkNumber }: { networkNumber: string }) {
  const [page, setPage] = useState(1);
  const q = useApiQuery(networkDelivery, { network_number: networkNumber, behind_page: page, page_size: LIMITS.pageSize }, { placeholderData: keepPreviousData, quiet: true, on204: 'stay' });
  const d = q.data?.data;
  return (
    <Table<Behind>
      size="small"
      rowKey="router_name"
      columns={columns}
      dataSource={d?.behind ?? []}
      loading={q.isFetching}
      pagination={{ current: page, pageSize: LIMITS.pageSize, total: d?.behind_count ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={{ x: 'max-content' }}
    />
  );
}

/**
 * 配置下发 of a network (issue 18): the last change's acknowledgement times and how many members have
 * not acknowledged the current config. The list of those members opens in a dialog: the page already
 * lists every member, and a second table of the same names under it only repeats them. The card's poll
 * asks for the count alone (one member of the list), the dialog for its pages.
 */
export function DeliveryCard({ networkNumber }: { networkNumber: string }) {
  const [listing, setListing] = useState(false);
  const q = useApiQuery(
    networkDelivery,
    { network_number: networkNumber, behind_page: 1, page_size: 1 },
    { refetchInterval: LIMITS.statusPollMs, refetchIntervalInBackground: false, quiet: true, on204: 'stay' },
  );
  const d = q.data?.data;
  const last = d?.last_change;
  const behindCount = d?.behind_count ?? 0;
  const items = last
    ? [
        { key: 'time', label: diagnosisMessages.deliveryLastChange, children: fmt(diagnosisMessages.deliveryLastChangeLine, { time: last.time, acknowledged: last.acknowledged, members: last.members }) },
        { key: 'p50', label: diagnosisMessages.deliveryP50, children: secondsText(last.p50_seconds) },
        { key: 'p95', label: diagnosisMessages.deliveryP95, children: secondsText(last.p95_seconds) },
      ]
    : [];
  return (
    <Card variant="borderless" title={diagnosisMessages.deliveryTitle} loading={q.isLoading} data-testid="delivery">
      <Flex vertical gap={12}>
        {items.length > 0 && <Descriptions size="small" column={{ xs: 1, sm: 3 }} items={items} />}
        {d && behindCount === 0 ? (
          <Typography.Text type="success">{diagnosisMessages.deliveryNoneBehind}</Typography.Text>
        ) : (
          <Flex gap={8} align="center" wrap>
            <Typography.Text type="warning">{fmt(diagnosisMessages.deliveryBehindCount, { n: behindCount })}</Typography.Text>
            <Button size="small" onClick={() => setListing(true)}>
              {diagnosisMessages.deliveryBehindView}
            </Button>
          </Flex>
        )}
      </Flex>
      <Modal title={diagnosisMessages.deliveryBehind} open={listing} onCancel={() => setListing(false)} footer={null} width={720} destroyOnHidden>
        <BehindTable networkNumber={networkNumber} />
      </Modal>
    </Card>
  );
}
