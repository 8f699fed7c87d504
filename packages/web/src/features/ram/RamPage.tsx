import { PlusOutlined } from '@ant-design/icons';
import { deleteRam, listRam, M, ramDomain, ramQuantity, type RamItem } from '@hublink/contract';
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
    { title: M.ramUsername, key: 'username', render: (_: unknown, r: RamItem) => `${r.username}@${domain}` },
    { title: M.ramNickname, dataIndex: 'nickname', key: 'nickname' },
    { title: M.ramRole, dataIndex: 'role_name', key: 'role_name' },
    { title: M.ramCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: M.ramLoginTime, dataIndex: 'login_time', key: 'login_time', render: (v: string | null) => v ?? M.ramNever },
    {
      title: M.ramActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: RamItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => setEditing({ record: r })}>
            {M.ramActionEdit}
          </Button>
          <Button type="link" size="small" onClick={() => setLogOf(r)}>
            {M.ramActionLog}
          </Button>
          <DeleteAction label={M.ramActionDelete} onConfirm={() => remove.mutateAsync({ id: r.id })} />
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
              {M.ramQuota} {quota.count}/{quota.max}
            </Tag>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
            {M.ramCreate}
          </Button>
        </>
      }
    >
      <PagedTable<RamItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={M.ramSearch}
        scroll={{ x: 'max-content' }}
      />
      <RamDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
      <RamLogDialog record={logOf} onClose={() => setLogOf(undefined)} />
    </PageContainer>
  );
}
