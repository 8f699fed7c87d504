import { PlusOutlined } from '@ant-design/icons';
import { type ApiTokenItem, apiTokenMessages, type ApiTokenState, fmt, listApiTokens, revokeApiToken } from '@hublink/contract';
import { Button, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useApiTokenMutation } from './api';
import { CreateTokenDialog } from './CreateTokenDialog';
import { ShownTokenDialog } from './ShownTokenDialog';

const STATE: Record<ApiTokenState, { color: string; label: string }> = {
  active: { color: 'green', label: apiTokenMessages.apiTokenStateActive },
  expired: { color: 'default', label: apiTokenMessages.apiTokenStateExpired },
  role_deleted: { color: 'red', label: apiTokenMessages.apiTokenStateRoleDeleted },
};

/** /account/api_token: the main account's personal API tokens (issue 18). */
export default function ApiTokenPage() {
  const list = usePagedList(listApiTokens);
  useStepBackWhenEmpty(list);
  const revoke = useApiTokenMutation(revokeApiToken);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const columns = [
    { title: apiTokenMessages.apiTokenName, dataIndex: 'name', key: 'name' },
    {
      title: apiTokenMessages.apiTokenPrefix,
      key: 'prefix',
      render: (_: unknown, r: ApiTokenItem) => <Typography.Text code>{`${r.prefix}…`}</Typography.Text>,
    },
    {
      title: apiTokenMessages.apiTokenScope,
      key: 'scope',
      render: (_: unknown, r: ApiTokenItem) => (r.scope === 'read' ? apiTokenMessages.apiTokenScopeRead : fmt(apiTokenMessages.apiTokenRoleOf, { name: r.role_name || '—' })),
    },
    { title: apiTokenMessages.apiTokenState, key: 'state', render: (_: unknown, r: ApiTokenItem) => <Tag color={STATE[r.state].color}>{STATE[r.state].label}</Tag> },
    { title: apiTokenMessages.apiTokenCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: apiTokenMessages.apiTokenExpireTime, dataIndex: 'expire_time', key: 'expire_time' },
    {
      title: apiTokenMessages.apiTokenLastUsed,
      key: 'last_used',
      render: (_: unknown, r: ApiTokenItem) =>
        r.last_used_time === '' ? (
          <Typography.Text type="secondary">{apiTokenMessages.apiTokenNeverUsed}</Typography.Text>
        ) : (
          <span>
            {r.last_used_time}
            <br />
            <Typography.Text type="secondary">{r.last_used_ip}</Typography.Text>
          </span>
        ),
    },
    {
      title: apiTokenMessages.apiTokenActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: ApiTokenItem) => (
        <Popconfirm title={apiTokenMessages.apiTokenRevokeConfirm} onConfirm={() => revoke.mutateAsync({ id: r.id })}>
          <Button type="link" size="small" danger>
            {apiTokenMessages.apiTokenRevoke}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {apiTokenMessages.apiTokenCreate}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{apiTokenMessages.apiTokenIntro}</Typography.Paragraph>
      <PagedTable<ApiTokenItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={apiTokenMessages.apiTokenSearch}
        scroll={{ x: 'max-content' }}
      />
      <CreateTokenDialog open={creating} onClose={() => setCreating(false)} onCreated={(made) => setShown(made.token)} />
      <ShownTokenDialog token={shown} onClose={() => setShown(null)} />
    </PageContainer>
  );
}
