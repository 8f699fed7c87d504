import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { deleteNetwork, listNetworks, type NetworkItem, networkMessages } from '@hublink/contract';
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
      title: networkMessages.networkColName,
      dataIndex: 'network_name',
      key: 'network_name',
      render: (name: string, r: NetworkItem) => (
        <Flex gap={4} align="center">
          <Link to={networkDetailPath(r.network_number)}>{name}</Link>
          {rights.edit && (
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${networkMessages.networkRename} ${name}`} onClick={() => setRenaming(r)} />
          )}
        </Flex>
      ),
    },
    { title: networkMessages.networkColType, dataIndex: 'network_type', key: 'network_type', render: networkTypeLabel },
    { title: networkMessages.networkColMembers, dataIndex: 'member_count', key: 'member_count' },
    { title: networkMessages.networkColFr, dataIndex: 'fr_name', key: 'fr_name', render: orDash },
    {
      title: networkMessages.networkColStatus,
      dataIndex: 'network_status',
      key: 'network_status',
      render: (s: number) => (s === 1 ? networkMessages.networkStatusOk : <Typography.Text type="danger">{networkMessages.networkStatusDisabled}</Typography.Text>),
    },
    {
      title: networkMessages.networkColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: NetworkItem) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => void navigate(networkDetailPath(r.network_number))}>
            {networkMessages.networkActionDetail}
          </Button>
          {rights.edit && (
            <Button type="link" size="small" onClick={() => void navigate(networkEditPath(r.network_number))}>
              {networkMessages.networkActionMembers}
            </Button>
          )}
          {rights.delete && <DeleteAction label={networkMessages.networkActionDelete} onConfirm={() => remove.mutateAsync({ network_number: r.network_number })} />}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={networkMessages.networkListTitle} card={false}>
      <QuotaCards />
      <Card variant="borderless">
        <PagedTable<NetworkItem>
          rowKey="network_number"
          columns={columns}
          list={list}
          searchable
          searchPlaceholder={networkMessages.networkSearch}
          scroll={{ x: 'max-content' }}
          toolbar={
            rights.create && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/network/create')}>
                {networkMessages.networkCreate}
              </Button>
            )
          }
        />
      </Card>
      <RenameDialog record={renaming} onClose={() => setRenaming(null)} />
    </PageContainer>
  );
}
