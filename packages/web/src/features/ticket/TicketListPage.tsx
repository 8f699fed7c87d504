import { PlusOutlined } from '@ant-design/icons';
import { deleteSupportTicket, fmt, listSupportTickets, type SupportTicketItem, ticketMessages } from '@hublink/contract';
import { Button, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { useBrand } from '../../session/brand';
import { DeleteAction } from '../../components/DeleteAction';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { StatusTag } from './StatusTag';
import { TICKET_CREATE_PATH, ticketDetailPath, useTicketMutation } from './api';

/**
 * /ticket/lists (客服工单, spec 3 §2): the tenant's tickets with view and delete (for whoever may), a
 * search, paging that steps back when the last row of a page goes, and the intro with the working
 * hours; the brand's name only on the product's own hosts.
 */
export default function TicketListPage() {
  const list = usePagedList(listSupportTickets);
  useStepBackWhenEmpty(list);
  const remove = useTicketMutation(deleteSupportTicket);
  const brand = useBrand();
  const navigate = useNavigate();

  const columns = [
    { title: ticketMessages.supportColNumber, dataIndex: 'ticket_number', key: 'ticket_number' },
    { title: ticketMessages.supportColTitle, dataIndex: 'ticket_title', key: 'ticket_title' },
    { title: ticketMessages.supportColStatus, dataIndex: 'ticket_status', key: 'ticket_status', render: (s: number) => <StatusTag status={s} /> },
    { title: ticketMessages.supportColCreate, dataIndex: 'create_time', key: 'create_time' },
    {
      title: ticketMessages.supportColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, r: SupportTicketItem) => (
        <Space size={0} wrap={false}>
          <Link to={ticketDetailPath(r.ticket_number)} style={{ padding: '0 7px' }}>
            {ticketMessages.supportActionView}
          </Link>
          {r.deletable && <DeleteAction label={ticketMessages.supportActionDelete} onConfirm={() => remove.mutateAsync({ ticket_number: r.ticket_number })} />}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      description={fmt(ticketMessages.supportIntro, { brand: brand.own ? brand.name : '' })}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(TICKET_CREATE_PATH)}>
          {ticketMessages.supportCreate}
        </Button>
      }
    >
      <PagedTable<SupportTicketItem> rowKey="ticket_number" columns={columns} list={list} searchable searchPlaceholder={ticketMessages.supportSearch} />
    </PageContainer>
  );
}
