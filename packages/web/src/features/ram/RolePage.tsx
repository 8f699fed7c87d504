import { PlusOutlined } from '@ant-design/icons';
import { deleteRole, listRoles, ramMessages, type RoleItem } from '@hublink/contract';
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
    { title: ramMessages.roleName, dataIndex: 'name', key: 'name' },
    { title: ramMessages.roleNote, dataIndex: 'note', key: 'note', ellipsis: true },
    { title: ramMessages.ramCreateTime, dataIndex: 'create_time', key: 'create_time' },
    { title: ramMessages.roleUpdateTime, dataIndex: 'update_time', key: 'update_time' },
    {
      title: ramMessages.ramActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: RoleItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => setEditing({ record: r })}>
            {ramMessages.ramActionEdit}
          </Button>
          <DeleteAction label={ramMessages.ramActionDelete} onConfirm={() => remove.mutateAsync({ id: r.id })} />
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          {ramMessages.roleCreate}
        </Button>
      }
    >
      <PagedTable<RoleItem>
        rowKey="id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={ramMessages.roleSearch}
        scroll={{ x: 'max-content' }}
      />
      <RoleDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
