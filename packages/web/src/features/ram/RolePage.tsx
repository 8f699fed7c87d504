import { PlusOutlined } from '@ant-design/icons';
import { deleteRole, listRoles, M, type RoleItem } from '@hublink/contract';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import { DeleteAction } from '../../components/DeleteAction';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useRamMutation } from './api';
import { RoleDialog } from './RoleDialog';

/** /ram/role: the tenant's roles and their permissions (spec 1 §2.11). */
export default function RolePage() {
  const list = usePagedList(listRoles);
  useStepBackWhenEmpty(list);
  const remove = useRamMutation(deleteRole);
  const [editing, setEditing] = useState<{ record?: RoleItem } | null>(null);

  const columns = [
    { title: M.roleName, dataIndex: 'name', key: 'name' },
    { title: M.roleNote, dataIndex: 'note', key: 'note', ellipsis: true },
    { title: M.ramCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: M.roleUpdateTime, dataIndex: 'update_time', key: 'update_time' },
    {
      title: M.ramActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: RoleItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => setEditing({ record: r })}>
            {M.ramActionEdit}
          </Button>
          <DeleteAction label={M.ramActionDelete} onConfirm={() => remove.mutateAsync({ id: r.id })} />
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          {M.roleCreate}
        </Button>
      }
    >
      <PagedTable<RoleItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={M.roleSearch}
        scroll={{ x: 'max-content' }}
      />
      <RoleDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
