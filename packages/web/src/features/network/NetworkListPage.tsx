import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { M, deleteNetwork, listNetworks, type NetworkItem } from '@hublink/contract';
import { Button, Card, Flex, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePagedList } from '../../api/usePagedList';
import { DeleteAction } from '../../components/DeleteAction';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useNetworkMutation } from './api';
import { networkDetailPath, networkEditPath } from '../../components/pageLinks';
import { networkTypeLabel, orDash } from './labels';
import { useNetworkRights } from './permissions';
import { QuotaCards } from './QuotaCards';
import { RenameDialog } from './RenameDialog';

/** /network/lists (titled VPN): the quota cards and the tenant's networks (spec 2 §2). */
export default function NetworkListPage() {
  const list = usePagedList(listNetworks);
  useStepBackWhenEmpty(list);
  const rights = useNetworkRights();
  const remove = useNetworkMutation(deleteNetwork);
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState<NetworkItem | null>(null);

  const columns = [
    {
      title: M.networkColName,
      dataIndex: 'network_name',
      key: 'network_name',
      render: (name: string, r: NetworkItem) => (
        <Flex gap={4} align="center">
          <Link to={networkDetailPath(r.network_number)}>{name}</Link>
          {rights.edit && (
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${M.networkRename} ${name}`} onClick={() => setRenaming(r)} />
          )}
        </Flex>
      ),
    },
    { title: M.networkColType, dataIndex: 'network_type', key: 'network_type', render: networkTypeLabel },
    { title: M.networkColMembers, dataIndex: 'member_count', key: 'member_count' },
    { title: M.networkColFr, dataIndex: 'fr_name', key: 'fr_name', render: orDash },
    {
      title: M.networkColStatus,
      dataIndex: 'network_status',
      key: 'network_status',
      render: (s: number) => (s === 1 ? M.networkStatusOk : <Typography.Text type="danger">{M.networkStatusDisabled}</Typography.Text>),
    },
    {
      title: M.networkColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: NetworkItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => void navigate(networkDetailPath(r.network_number))}>
            {M.networkActionDetail}
          </Button>
          {rights.edit && (
            <Button type="link" size="small" onClick={() => void navigate(networkEditPath(r.network_number))}>
              {M.networkActionMembers}
            </Button>
          )}
          {rights.delete && <DeleteAction label={M.networkActionDelete} onConfirm={() => remove.mutateAsync({ network_number: r.network_number })} />}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={M.networkListTitle} card={false}>
      <QuotaCards />
      <Card variant="borderless">
        <PagedTable<NetworkItem>
          rowKey="network_number"
          columns={columns}
          list={list}
          searchable
          searchPlaceholder={M.networkSearch}
          scroll={{ x: 'max-content' }}
          toolbar={
            rights.create && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/network/create')}>
                {M.networkCreate}
              </Button>
            )
          }
        />
      </Card>
      <RenameDialog record={renaming} onClose={() => setRenaming(null)} />
    </PageContainer>
  );
}
