import { BM, CODE, deleteSupportTicket, SUPPORT_STATUS, type SupportTicketDetail, supportTicketInfo, supportTypeLabel, ticketMessages } from '@hublink/contract';
import { Button, Card, Descriptions, Empty, Grid, Popconfirm, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { AppraisalView, AppraiseForm } from './AppraiseForm';
import { Dialogue } from './Dialogue';
import { ReplyForm } from './ReplyForm';
import { StatusTag } from './StatusTag';
import { TicketImages } from './TicketImages';
import { TICKET_LIST_PATH, useTicketMutation } from './api';

function Summary({ ticket }: { ticket: SupportTicketDetail }) {
  // On a phone each label sits over its value, so the overview and the images get the whole width.
  const narrow = Grid.useBreakpoint().sm === false;
  return (
    <Descriptions bordered size="middle" column={{ xs: 1, sm: 1, md: 2 }} layout={narrow ? 'vertical' : 'horizontal'} styles={{ label: { whiteSpace: 'nowrap' } }}>
      <Descriptions.Item label={ticketMessages.supportColNumber}>{ticket.ticket_number}</Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportColStatus}>
        <StatusTag status={ticket.ticket_status} />
      </Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportColTitle} span={{ xs: 1, sm: 1, md: 2 }}>
        {ticket.ticket_title}
      </Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportFieldType}>{supportTypeLabel(ticket.ticketType)}</Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportRaisedBy}>{ticket.raised_by}</Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportColCreate} span={{ xs: 1, sm: 1, md: 2 }}>
        {ticket.create_time}
      </Descriptions.Item>
      <Descriptions.Item label={ticketMessages.supportOverview} span={{ xs: 1, sm: 1, md: 2 }}>
        <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{ticket.content}</Typography.Paragraph>
      </Descriptions.Item>
      {ticket.images.length > 0 && (
        <Descriptions.Item label={ticketMessages.supportAttachments} span={{ xs: 1, sm: 1, md: 2 }}>
          <TicketImages images={ticket.images} size={80} />
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/**
 * /ticket/detail?ticket_number (spec 3 §2, §4): the ticket, its dialogue with images, the reply box
 * while the ticket is open, the star rating once an adviser answered or closed it, until one is saved
 * (then shown read only; reply and rating forms gone), delete with confirmation for whoever may; back goes to /ticket/lists.
 */
export default function TicketDetailPage() {
  const [params] = useSearchParams();
  const number = params.get('ticket_number') ?? '';
  const query = useApiQuery(supportTicketInfo, { ticket_number: number }, { enabled: number !== '' });
  const remove = useTicketMutation(deleteSupportTicket);
  const navigate = useNavigate();
  const ticket = query.data?.data;
  const back = () => void navigate(TICKET_LIST_PATH);

  const onDelete = async () => {
    const env = await remove.mutateAsync({ ticket_number: number });
    if (env.code === CODE.ok) void navigate(TICKET_LIST_PATH, { replace: true });
  };

  const extra = (
    <>
      {ticket?.deletable && (
        <Popconfirm title={BM.confirmDelete} onConfirm={onDelete}>
          <Button danger>{ticketMessages.supportActionDelete}</Button>
        </Popconfirm>
      )}
      <Button onClick={back}>{ticketMessages.supportBack}</Button>
    </>
  );

  if (!ticket) {
    return (
      <PageContainer extra={extra} loading={query.isLoading}>
        <Empty description={query.error?.message ?? ticketMessages.supportNotFound} />
      </PageContainer>
    );
  }
  const open = ticket.appraise === null && ticket.ticket_status !== SUPPORT_STATUS.closed;
  // There is a service to rate once an adviser answered or closed the ticket (the server says the same).
  const rateable = ticket.ticket_status === SUPPORT_STATUS.closed || ticket.dialogue.some((d) => d.reply_type === 'service');
  return (
    <PageContainer extra={extra} card={false}>
      <Card variant="borderless">
        <Summary ticket={ticket} />
      </Card>
      <Card variant="borderless" title={ticketMessages.supportDialogue}>
        <Dialogue entries={ticket.dialogue} />
      </Card>
      {open && (
        <Card variant="borderless" title={ticketMessages.supportReplyTitle}>
          <ReplyForm ticketNumber={ticket.ticket_number} />
        </Card>
      )}
      <Card variant="borderless" title={ticketMessages.supportAppraiseTitle}>
        {ticket.appraise ? (
          <AppraisalView appraise={ticket.appraise} />
        ) : rateable ? (
          <AppraiseForm ticketNumber={ticket.ticket_number} />
        ) : (
          <Typography.Text type="secondary">{ticketMessages.supportAppraiseAfterReply}</Typography.Text>
        )}
      </Card>
    </PageContainer>
  );
}
