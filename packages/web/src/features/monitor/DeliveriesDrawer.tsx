import { BM, type DeliveryItem, fmt, listDeliveries, monitorMessages as T, resendDelivery, type WebhookItem } from '@hublink/contract';
import { Alert, Button, Drawer, Empty, Grid, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useMonitorMutation } from './api';
import { deliveryStatus } from './labels';
import { useMonitorRights } from './rights';

/** Resends one failed delivery after confirmation; the list reloads after it. */
function ResendAction({ id }: { id: number }) {
  const resend = useMonitorMutation(resendDelivery);
  const busy = useGuardedBusy();
  return (
    <Popconfirm title={T.deliveryResendConfirm} onConfirm={() => busy.run(async () => void (await resend.mutateAsync({ id })))}>
      <Button type="link" size="small" loading={busy.busy}>
        {T.deliveryResend}
      </Button>
    </Popconfirm>
  );
}

/** The list inside the drawer; mounted only while it is open, so it loads when opened. */
function DeliveryList({ hook }: { hook: WebhookItem }) {
  const rights = useMonitorRights();
  const [page, setPage] = useState(1);
  const query = useApiQuery(listDeliveries, { page, uuid: hook.uuid }, { quiet: true });
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={T.webhookLoadFailed}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {T.webhookRetry}
          </Button>
        }
      />
    );
  }
  const columns = [
    { title: T.deliveryTime, dataIndex: 'update_time', key: 'time', width: 170 },
    { title: T.deliveryAlert, dataIndex: 'title', key: 'title' },
    {
      title: T.deliveryStatus,
      key: 'status',
      width: 110,
      render: (_: unknown, r: DeliveryItem) => {
        const s = deliveryStatus(r.status, r.attempts);
        return <Tag color={s.color}>{s.text}</Tag>;
      },
    },
    { title: T.deliveryAttempts, dataIndex: 'attempts', key: 'attempts', width: 90 },
    {
      title: T.deliveryAnswer,
      key: 'error',
      render: (_: unknown, r: DeliveryItem) => (r.error ? <Typography.Text type="danger">{r.error}</Typography.Text> : '-'),
    },
    ...(rights.edit
      ? [{ title: T.deliveryActions, key: 'actions', width: 80, render: (_: unknown, r: DeliveryItem) => (r.status === 'failed' ? <ResendAction id={r.id} /> : null) }]
      : []),
  ];
  return (
    <Table<DeliveryItem>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={query.data?.data ?? []}
      loading={query.isFetching}
      scroll={{ x: 720 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.deliveryEmpty} /> }}
      pagination={{ current: page, total: query.data?.count ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false, showTotal: (n) => fmt(BM.tableTotal, { n }) }}
    />
  );
}

export interface DeliveriesDrawerProps {
  hook: WebhookItem | null;
  onClose: () => void;
}

/** The recent deliveries of one webhook, newest first, with the provider's answer and a resend for failed ones. */
export function DeliveriesDrawer({ hook, onClose }: DeliveriesDrawerProps) {
  const screens = Grid.useBreakpoint();
  return (
    <Drawer open={hook !== null} onClose={onClose} title={hook ? fmt(T.deliveriesTitle, { name: hook.name }) : ''} size={screens.md ? 880 : '100%'} destroyOnHidden>
      {hook && <DeliveryList hook={hook} />}
    </Drawer>
  );
}
