import { appraiseSupportTicket, fmt, LIMITS, type SupportTicketDetail, ticketMessages } from '@hublink/contract';
import { Button, Flex, Form, Input, Rate, Typography } from 'antd';
import { rulesOf } from '../../api/rules';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useTicketMutation } from './api';

interface Values {
  grade?: number;
  content?: string;
}

const body = appraiseSupportTicket.body;

/** A saved appraisal as spec 3 §4 shows it: the stars disabled, the comment read only. */
export function AppraisalView({ appraise }: { appraise: NonNullable<SupportTicketDetail['appraise']> }) {
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center" wrap>
        <Typography.Text>{ticketMessages.supportGrade}</Typography.Text>
        <Rate disabled value={appraise.grade} count={LIMITS.supportGradeMax} aria-label={ticketMessages.supportGrade} />
      </Flex>
      {appraise.content && <Input.TextArea readOnly value={appraise.content} rows={2} aria-label={ticketMessages.supportAppraiseContent} />}
      <Typography.Text type="secondary">{fmt(ticketMessages.supportAppraisedAt, { time: appraise.create_time })}</Typography.Text>
    </Flex>
  );
}

/** Rates the service: stars required ('评分不能为空'), a comment optional; saved once. */
export function AppraiseForm({ ticketNumber }: { ticketNumber: string }) {
  const appraise = useTicketMutation(appraiseSupportTicket);
  const { busy, run } = useGuardedBusy();

  const submit = (v: Values) =>
    run(async () => {
      // On success the ticket reloads with its appraisal, and this form gives way to AppraisalView.
      await appraise.mutateAsync({ ticket_number: ticketNumber, grade: v.grade ?? 0, content: v.content ?? '' });
    });

  return (
    <Form<Values> name="ticket-appraise" layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item name="grade" label={ticketMessages.supportGrade} rules={rulesOf(body, 'grade')}>
        <Rate count={LIMITS.supportGradeMax} aria-label={ticketMessages.supportGrade} />
      </Form.Item>
      <Form.Item name="content" label={ticketMessages.supportAppraiseContent} rules={rulesOf(body, 'content')}>
        <Input.TextArea rows={3} maxLength={LIMITS.supportAppraiseMax} showCount placeholder={ticketMessages.supportAppraisePlaceholder} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {ticketMessages.supportAppraiseSubmit}
      </Button>
    </Form>
  );
}
