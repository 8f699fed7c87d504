import { PlusOutlined } from '@ant-design/icons';
import { deleteRam, listRam, ramDomain, type RamItem, ramMessages, ramQuantity } from '@hublink/contract';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { usePagedList } from '../../api/usePagedList';
import { DeleteAction } from '../../components/DeleteAction';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useRamMutation } from './api';
import { RamDialog } from './RamDialog';
import { RamLogDialog } from './RamLogDialog';

/** /ram/index: the tenant's sub-accounts (spec 1 §2.11). */
export default function RamPage() {
  const list = usePagedList(listRam);
  useStepBackWhenEmpty(list);
  const quota = useApiQuery(ramQuantity).data?.data;
  const domain = useApiQuery(ramDomain).data?.data?.domain ?? '';
  const remove = useRamMutation(deleteRam);
  const [editing, setEditing] = useState<{ record?: RamItem } | null>(null);
  const [logOf, setLogOf] = useState<RamItem | undefined>();

  const columns = [
    { title: ramMessages.ramUsername, key: 'username', render: (_: unknown, r: RamItem) => `${r.username}@${domain}` },
    { title: ramMessages.ramNickname, dataIndex: 'nickname', key: 'nickname' },
    { title: ramMessages.ramRole, dataIndex: 'role_name', key: 'role_name' },
    { title: ramMessages.ramCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: ramMessages.ramLoginTime, dataIndex: 'login_time', key: 'login_time', render: (v: string | null) => v ?? ramMessages.ramNever },
    {
      title: ramMessages.ramActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: RamItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => setEditing({ record: r })}>
            {ramMessages.ramActionEdit}
          </Button>
          <Button type="link" size="small" onClick={() => setLogOf(r)}>
            {ramMessages.ramActionLog}
          </Button>
          <DeleteAction label={ramMessages.ramActionDelete} onConfirm={() => remove.mutateAsync({ id: r.id })} />
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <>
          {quota && (
            <Tag color={quota.count >= quota.max ? 'red' : 'blue'} style={{ marginInlineEnd: 0, alignSelf: 'center' }}>
              {ramMessages.ramQuota} {quota.count}/{quota.max}
            </Tag>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
            {ramMessages.ramCreate}
          </Button>
        </>
      }
    >
      <PagedTable<RamItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={ramMessages.ramSearch}
        scroll={{ x: 'max-content' }}
      />
      <RamDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
      <RamLogDialog record={logOf} onClose={() => setLogOf(undefined)} />
    </PageContainer>
  );
}
