import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { AUTH_SOURCE_STATUS, authSourceCode, type AuthSourceItem, authSourceMessages, deleteAuthSource, disableAuthSource, enableAuthSource, fmt, listAuthSources, SM } from '@hublink/contract';
import { Button, Empty, Flex, Popconfirm, Result, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useUser } from '../../session/user';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useSourceMutation } from './api';
import { selfPageUrl } from '../../session/paths';
import { AuthSourceDialog, type SourceConfig } from './AuthSourceDialog';
import { copyText } from './copy';
import { typeLabel } from './labels';

/** What a member needs to sign in with a source: the ID code and which source to choose. */
const signInText = (code: string, r: AuthSourceItem) => fmt(authSourceMessages.authSourceCopyText, { code, name: r.name, type: typeLabel(r.type) });

/** The row actions: every one asks first but edit and copy; a sub-account may only copy. */
function RowActions({ record, main, code, onEdit }: { record: AuthSourceItem; main: boolean; code: string; onEdit: () => void }) {
  const enable = useSourceMutation(enableAuthSource);
  const disable = useSourceMutation(disableAuthSource);
  const remove = useSourceMutation(deleteAuthSource);
  const enabled = record.status !== AUTH_SOURCE_STATUS.disabled;
  return (
    <Space size={0} wrap={false}>
      {main && (
        <>
          <Button type="link" size="small" onClick={onEdit}>
            {authSourceMessages.authSourceActionEdit}
          </Button>
          {enabled ? (
            <Popconfirm title={authSourceMessages.authSourceConfirmDisable} onConfirm={() => disable.mutateAsync({ id: record.id })}>
              <Button type="link" size="small">
                {authSourceMessages.authSourceActionDisable}
              </Button>
            </Popconfirm>
          ) : (
            <Popconfirm title={authSourceMessages.authSourceConfirmEnable} onConfirm={() => enable.mutateAsync({ id: record.id })}>
              <Button type="link" size="small">
                {authSourceMessages.authSourceActionEnable}
              </Button>
            </Popconfirm>
          )}
          <Popconfirm title={authSourceMessages.authSourceConfirmDelete} onConfirm={() => remove.mutateAsync({ id: record.id })}>
            <Button type="link" size="small" danger>
              {authSourceMessages.authSourceActionDelete}
            </Button>
          </Popconfirm>
        </>
      )}
      <Button type="link" size="small" disabled={!code} onClick={() => void copyText(signInText(code, record))}>
        {authSourceMessages.authSourceActionCopy}
      </Button>
    </Space>
  );
}

/**
 * /router/auth_source: the tenant's third-party sign-in sources (spec 3 §2). Only tenants with the
 * feature (user config software_auth_source = 1) have them; the page says so to others and calls nothing.
 */
export default function AuthSourcePage() {
  const user = useUser();
  if (user && user.config.software_auth_source !== 1) {
    return (
      <PageContainer>
        <Result status="info" title={authSourceMessages.authSourceNotEnabled} />
      </PageContainer>
    );
  }
  return <Sources main={user !== null && user.ram !== 1} />;
}

/** The ID code, then the list or the empty state; a sub-account (main false) sees them and may copy. */
function Sources({ main }: { main: boolean }) {
  const codeQuery = useApiQuery(authSourceCode);
  const list = usePagedList(listAuthSources);
  useStepBackWhenEmpty(list);
  const [editing, setEditing] = useState<{ record?: AuthSourceItem } | null>(null);

  const data = codeQuery.data?.data;
  const config: SourceConfig | undefined = data && { code: data.code, types: data.config.type, defaults: data.config.default };
  const code = data?.code ?? '';
  const empty = list.rows !== undefined && list.total === 0 && !list.searchText;
  const create = main && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
      {authSourceMessages.authSourceCreate}
    </Button>
  );

  const columns = [
    { title: authSourceMessages.authSourceColName, dataIndex: 'name', key: 'name' },
    { title: authSourceMessages.authSourceColType, key: 'type', render: (_: unknown, r: AuthSourceItem) => typeLabel(r.type) },
    { title: authSourceMessages.authSourceColAppId, dataIndex: 'app_id', key: 'app_id' },
    {
      title: authSourceMessages.authSourceColStatus,
      key: 'status',
      render: (_: unknown, r: AuthSourceItem) =>
        r.status === AUTH_SOURCE_STATUS.disabled ? <Tag>{authSourceMessages.authSourceStatusOff}</Tag> : <Tag color="green">{authSourceMessages.authSourceStatusOn}</Tag>,
    },
    { title: authSourceMessages.authSourceColCreateTime, dataIndex: 'create_time', key: 'create_time' },
    {
      title: authSourceMessages.authSourceColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: AuthSourceItem) => <RowActions record={r} main={main} code={code} onEdit={() => setEditing({ record: r })} />,
    },
  ];

  return (
    <PageContainer
      extra={!empty && create}
      description={
        code && (
          <Flex align="center" gap={8} wrap component="span">
            <span>{authSourceMessages.authSourceCodeLabel}</span>
            <Typography.Text strong code>
              {code}
            </Typography.Text>
            <Button size="small" type="text" icon={<CopyOutlined />} onClick={() => void copyText(code)} aria-label={`${authSourceMessages.authSourceActionCopy}${authSourceMessages.authSourceCodeLabel}`} />
            <Typography.Text type="secondary">{authSourceMessages.authSourceCodeHint}</Typography.Text>
            <Flex align="center" gap={4} wrap component="span" style={{ flexBasis: '100%' }}>
              <Typography.Text type="secondary">{SM.selfPageWithSources}</Typography.Text>
              <Typography.Text copyable>{selfPageUrl(code)}</Typography.Text>
            </Flex>
          </Flex>
        )
      }
      loading={list.rows === undefined && list.loading}
    >
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Typography.Text strong>{authSourceMessages.authSourceEmptyTitle}</Typography.Text>} style={{ padding: '24px 0' }}>
          <Typography.Paragraph type="secondary" style={{ maxWidth: 560, margin: '0 auto 16px' }}>
            {authSourceMessages.authSourceEmptyText}
          </Typography.Paragraph>
          {create}
        </Empty>
      ) : (
        <PagedTable<AuthSourceItem> rowKey="id" columns={columns} list={list} searchable scroll={{ x: 'max-content' }} />
      )}
      <AuthSourceDialog open={editing !== null} record={editing?.record} config={config} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
