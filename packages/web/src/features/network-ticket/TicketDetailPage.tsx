import { BM, CODE, deleteTicket, fmt, networkTicketMessages, popRegionName, TICKET_STATUS, type TicketItem, ticketView } from '@hublink/contract';
import { Button, Descriptions, Empty, Flex, Popconfirm, Tag } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { useUser } from '../../session/user';
import { PageContainer } from '../../components/PageContainer';
import { useTicketMutation } from './api';
import { useGoBack } from './useGoBack';
import { bandwidthLabel, mayDelete, namesLabel, mayEditTickets, regionsLabel, TICKET_LIST_PATH, ticketStatusColor, ticketStatusLabel, ticketTypeLabel, yearsLabel } from './labels';

/** pop_conf as region → members, one line a region. */
function PopConf({ ticket }: { ticket: TicketItem }) {
  const regions = ticket.attributes.pop;
  if (regions.length === 0) return <>-</>;
  return (
    <Flex vertical gap={4}>
      {regions.map((region) => {
        const members = ticket.attributes.pop_conf[region] ?? [];
        return (
          <span key={region}>
            {fmt(networkTicketMessages.ticketRegionMembers, { region: popRegionName(region), members: members.length > 0 ? namesLabel(members) : networkTicketMessages.ticketDetailNoMembers })}
          </span>
        );
      })}
    </Flex>
  );
}

/** /network/ticket_detail?network_number&network_ticket_number: one work order and its delete button (spec 2 §2). */
export default function TicketDetailPage() {
  const [params] = useSearchParams();
  const number = params.get('network_ticket_number') ?? '';
  const query = useApiQuery(ticketView, { network_ticket_number: number }, { enabled: number !== '' });
  const remove = useTicketMutation(deleteTicket);
  const canEdit = mayEditTickets(useUser());
  const navigate = useNavigate();
  const goBack = useGoBack();
  const ticket = query.data?.data;

  const onDelete = async () => {
    const env = await remove.mutateAsync({ network_ticket_number: number });
    if (env.code === CODE.ok) void navigate(TICKET_LIST_PATH, { replace: true });
  };

  const extra = (
    <>
      {ticket && canEdit && mayDelete(ticket.network_ticket_status) && (
        <Popconfirm title={BM.confirmDelete} onConfirm={onDelete}>
          <Button danger>{networkTicketMessages.ticketActionDelete}</Button>
        </Popconfirm>
      )}
      <Button onClick={goBack}>{networkTicketMessages.ticketBack}</Button>
    </>
  );

  return (
    <PageContainer extra={extra} loading={query.isLoading}>
      {!ticket ? (
        <Empty description={query.error?.message ?? networkTicketMessages.ticketNotFound} />
      ) : (
        <Descriptions bordered column={{ xs: 1, sm: 1, md: 2 }} size="middle">
          <Descriptions.Item label={networkTicketMessages.ticketColNumber}>{ticket.network_ticket_number}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketColNetwork}>{ticket.network_number}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketColType}>{ticketTypeLabel(ticket.network_ticket_type)}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketColStatus}>
            <Tag color={ticketStatusColor(ticket.network_ticket_status)}>{ticketStatusLabel(ticket.network_ticket_status)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketColCreate}>{ticket.create_time}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketColComplete}>{ticket.network_ticket_status === TICKET_STATUS.completed ? ticket.complete_time : '-'}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketDetailBandwidth}>{bandwidthLabel(ticket.attributes.bandwidth)}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketDetailPop}>{regionsLabel(ticket.attributes.pop) || '-'}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketDetailExpired}>{yearsLabel(ticket.attributes.expired_time)}</Descriptions.Item>
          <Descriptions.Item label={networkTicketMessages.ticketDetailPopConf}>
            <PopConf ticket={ticket} />
          </Descriptions.Item>
        </Descriptions>
      )}
    </PageContainer>
  );
}
