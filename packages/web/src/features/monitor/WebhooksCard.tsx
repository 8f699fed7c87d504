import { PlusOutlined } from '@ant-design/icons';
import { BM, deleteWebhook, fmt, listWebhooks, LIMITS, monitorMessages as T, testWebhook, WEBHOOK_TYPES, type WebhookItem } from '@hublink/contract';
import { Alert, Button, Card, Empty, Flex, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { WideTable } from '../../components/WideTable';
import { useMonitorMutation } from './api';
import { DeliveriesDrawer } from './DeliveriesDrawer';
import { HookDialog } from './HookDialog';
import { deliveryStatus, KIND_LABELS } from './labels';
import { useMonitorRights } from './rights';

/** Whom a webhook mentions, in one line. */
function mentionsOf(h: WebhookItem): string {
  const parts = [...h.at_mobiles, ...h.at_user_ids];
  if (h.at_all === 1) parts.push(T.webhookMentionAll);
  return parts.length ? parts.map((p) => `@${p}`).join(' ') : T.webhookNoMentions;
}

/** Sends a test message (with the webhook's mentions) after confirmation; a test changes nothing, so nothing reloads. */
function TestAction({ uuid }: { uuid: string }) {
  const test = useApiMutation(testWebhook);
  const busy = useGuardedBusy(LIMITS.submitGuardLongMs);
  return (
    <Popconfirm title={T.webhookTestConfirm} onConfirm={() => busy.run(async () => void (await test.mutateAsync({ uuid })))}>
      <Button type="link" size="small" loading={busy.busy}>
        {T.webhookTest}
      </Button>
    </Popconfirm>
  );
}

/**
 * The tenant's webhooks (issue 33): name, provider, the alert kinds each gets, whom it mentions and how
 * its newest delivery went; add, edit, test and delete for whoever may edit monitoring, and each
 * webhook's deliveries for everyone who sees the page.
 */
export function WebhooksCard() {
  const rights = useMonitorRights();
  const list = useApiQuery(listWebhooks, undefined, { quiet: true });
  const remove = useMonitorMutation(deleteWebhook);
  const [editing, setEditing] = useState<{ record?: WebhookItem } | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<WebhookItem | null>(null);
  const hooks = list.data?.data ?? [];

  const columns = [
    {
      title: T.webhookName,
      key: 'name',
      render: (_: unknown, h: WebhookItem) => (
        <Space size={4} wrap>
          <Typography.Text strong>{h.name}</Typography.Text>
          {h.is_default === 1 && <Tag color="blue">{T.webhookDefaultTag}</Tag>}
        </Space>
      ),
    },
    { title: T.webhookType, key: 'type', width: 96, render: (_: unknown, h: WebhookItem) => WEBHOOK_TYPES[h.type] },
    {
      title: T.webhookKinds,
      key: 'kinds',
      render: (_: unknown, h: WebhookItem) => (
        <Flex gap={4} wrap>
          {h.kinds.map((k) => (
            <Tag key={k}>{KIND_LABELS[k]}</Tag>
          ))}
        </Flex>
      ),
    },
    { title: T.webhookMentions, key: 'mentions', render: (_: unknown, h: WebhookItem) => <Typography.Text type={h.at_mobiles.length || h.at_user_ids.length || h.at_all ? undefined : 'secondary'}>{mentionsOf(h)}</Typography.Text> },
    {
      title: T.webhookLastDelivery,
      key: 'last',
      render: (_: unknown, h: WebhookItem) => {
        const s = deliveryStatus(h.last_status, h.last_attempts);
        const tag = <Tag color={s.color}>{s.text}</Tag>;
        return (
          <Flex vertical gap={2}>
            {h.last_error ? <Tooltip title={h.last_error}>{tag}</Tooltip> : <span>{tag}</span>}
            {h.last_time && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {h.last_time}
              </Typography.Text>
            )}
          </Flex>
        );
      },
    },
    {
      title: T.webhookActions,
      key: 'actions',
      render: (_: unknown, h: WebhookItem) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setDeliveriesOf(h)}>
            {T.webhookDeliveries}
          </Button>
          {rights.edit && <TestAction uuid={h.uuid} />}
          {rights.edit && (
            <Button type="link" size="small" onClick={() => setEditing({ record: h })}>
              {BM.edit}
            </Button>
          )}
          {rights.edit && (
            <Popconfirm title={fmt(T.webhookDeleteOneConfirm, { name: h.name })} onConfirm={() => remove.mutateAsync({ uuid: h.uuid })}>
              <Button type="link" size="small" danger>
                {T.webhookDelete}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={T.webhooksTitle}
      variant="borderless"
      extra={
        rights.edit && (
          <Button type="primary" icon={<PlusOutlined />} disabled={hooks.length >= LIMITS.webhooksMax} onClick={() => setEditing({})}>
            {T.webhookCreate}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{T.webhooksHint}</Typography.Paragraph>
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title={T.webhookLoadFailed}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {T.webhookRetry}
            </Button>
          }
        />
      ) : (
        <WideTable<WebhookItem>
          rowKey="uuid"
          columns={columns}
          dataSource={hooks}
          loading={list.isFetching}
          pagination={false}
          phoneFirst={['name', 'last', 'actions']}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.webhookEmpty} /> }}
        />
      )}
      <HookDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
      <DeliveriesDrawer hook={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
    </Card>
  );
}
