import { PlusOutlined } from '@ant-design/icons';
import { fmt, listApiTokens, M, revokeApiToken, type ApiTokenItem, type ApiTokenState } from '@hublink/contract';
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
  active: { color: 'green', label: M.apiTokenStateActive },
  expired: { color: 'default', label: M.apiTokenStateExpired },
  role_deleted: { color: 'red', label: M.apiTokenStateRoleDeleted },
};

/** /account/api_token: the main account's personal API tokens (issue 18). */
export default function ApiTokenPage() {
  const list = usePagedList(listApiTokens);
  useStepBackWhenEmpty(list);
  const revoke = useApiTokenMutation(revokeApiToken);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const columns = [
    { title: M.apiTokenName, dataIndex: 'name', key: 'name' },
    {
      title: M.apiTokenPrefix,
      key: 'prefix',
      render: (_: unknown, r: ApiTokenItem) => <Typography.Text code>{`${r.prefix}…`}</Typography.Text>,
    },
    {
      title: M.apiTokenScope,
      key: 'scope',
      render: (_: unknown, r: ApiTokenItem) => (r.scope === 'read' ? M.apiTokenScopeRead : fmt(M.apiTokenRoleOf, { name: r.role_name || '—' })),
    },
    { title: M.apiTokenState, key: 'state', render: (_: unknown, r: ApiTokenItem) => <Tag color={STATE[r.state].color}>{STATE[r.state].label}</Tag> },
    { title: M.apiTokenCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: M.apiTokenExpireTime, dataIndex: 'expire_time', key: 'expire_time' },
    {
      title: M.apiTokenLastUsed,
      key: 'last_used',
      render: (_: unknown, r: ApiTokenItem) =>
        r.last_used_time === '' ? (
          <Typography.Text type="secondary">{M.apiTokenNeverUsed}</Typography.Text>
        ) : (
          <span>
            {r.last_used_time}
            <br />
            <Typography.Text type="secondary">{r.last_used_ip}</Typography.Text>
          </span>
        ),
    },
    {
      title: M.apiTokenActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: ApiTokenItem) => (
        <Popconfirm title={M.apiTokenRevokeConfirm} onConfirm={() => revoke.mutateAsync({ id: r.id })}>
          <Button type="link" size="small" danger>
            {M.apiTokenRevoke}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {M.apiTokenCreate}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{M.apiTokenIntro}</Typography.Paragraph>
      <PagedTable<ApiTokenItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={M.apiTokenSearch}
        scroll={{ x: 'max-content' }}
      />
      <CreateTokenDialog open={creating} onClose={() => setCreating(false)} onCreated={(made) => setShown(made.token)} />
      <ShownTokenDialog token={shown} onClose={() => setShown(null)} />
    </PageContainer>
  );
}
