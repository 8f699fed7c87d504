import { PlusOutlined } from '@ant-design/icons';
import { cancelTicket, deleteTicket, listTickets, networkTicketMessages, TICKET_STATUS, type TicketItem } from '@hublink/contract';
import { Button, Flex, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useUser } from '../../session/user';
import { DeleteAction } from '../../components/DeleteAction';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useTicketMutation } from './api';
import { ApplyDialog } from './ApplyDialog';
import { mayCancel, mayDelete, mayEditTickets, ticketDetailPath, ticketStatusColor, ticketStatusLabel, ticketTypeLabel } from './labels';
import { TicketFilters, type TicketFilterValues } from './TicketFilters';

/** /network/ticket_lists: the tenant's network work orders, filtered, 10 a page (spec 2 §2). */
export default function TicketListPage() {
  const [filters, setFilters] = useState<Omit<TicketFilterValues, 'search'>>({});
  const list = usePagedList(listTickets, filters);
  useStepBackWhenEmpty(list);
  const canEdit = mayEditTickets(useUser());
  const remove = useTicketMutation(deleteTicket);
  const cancel = useTicketMutation(cancelTicket);
  const [applying, setApplying] = useState(false);

  const columns = [
    {
      title: networkTicketMessages.ticketColNumber,
      dataIndex: 'network_ticket_number',
      key: 'network_ticket_number',
      render: (n: string, r: TicketItem) => <Link to={ticketDetailPath(r.network_number, n)}>{n}</Link>,
    },
    { title: networkTicketMessages.ticketColNetwork, dataIndex: 'network_number', key: 'network_number' },
    { title: networkTicketMessages.ticketColType, dataIndex: 'network_ticket_type', key: 'network_ticket_type', render: ticketTypeLabel },
    {
      title: networkTicketMessages.ticketColStatus,
      dataIndex: 'network_ticket_status',
      key: 'network_ticket_status',
      render: (s: number) => <Tag color={ticketStatusColor(s)}>{ticketStatusLabel(s)}</Tag>,
    },
    { title: networkTicketMessages.ticketColCreate, dataIndex: 'create_time', key: 'create_time' },
    {
      title: networkTicketMessages.ticketColComplete,
      dataIndex: 'complete_time',
      key: 'complete_time',
      render: (t: string, r: TicketItem) => (r.network_ticket_status === TICKET_STATUS.completed ? t : ''),
    },
    {
      title: networkTicketMessages.ticketColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: TicketItem) => (
        <Space size={0} wrap={false}>
          <Link to={ticketDetailPath(r.network_number, r.network_ticket_number)} style={{ padding: '0 7px' }}>
            {networkTicketMessages.ticketActionDetail}
          </Link>
          {canEdit && mayDelete(r.network_ticket_status) && (
            <DeleteAction label={networkTicketMessages.ticketActionDelete} onConfirm={() => remove.mutateAsync({ network_ticket_number: r.network_ticket_number })} />
          )}
          {canEdit && mayCancel(r.network_ticket_status) && (
            <Popconfirm title={networkTicketMessages.ticketConfirmCancel} onConfirm={() => cancel.mutateAsync({ network_ticket_number: r.network_ticket_number })}>
              <Button type="link" size="small" danger>
                {networkTicketMessages.ticketActionCancel}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      title={networkTicketMessages.ticketListTitle}
      extra={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setApplying(true)}>
            {networkTicketMessages.ticketApply}
          </Button>
        )
      }
    >
      <Flex vertical gap={16}>
        <TicketFilters
          onApply={({ search, ...rest }) => {
            setFilters(rest);
            list.search(search);
          }}
        />
        <PagedTable<TicketItem> rowKey="network_ticket_number" columns={columns} list={list} />
      </Flex>
      <ApplyDialog open={applying} onClose={() => setApplying(false)} />
    </PageContainer>
  );
}
