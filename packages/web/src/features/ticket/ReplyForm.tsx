import { CODE, LIMITS, replySupportTicket, type SupportAttachment, ticketMessages } from '@hublink/contract';
import { Button, Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { ImagePicker } from './ImagePicker';
import { useTicketMutation } from './api';

interface Values {
  content: string;
  images?: SupportAttachment[];
}

/** The tenant's reply with up to 3 images ('回复内容不能为空' before any call); cleared once sent. */
export function ReplyForm({ ticketNumber }: { ticketNumber: string }) {
  const [form] = Form.useForm<Values>();
  const reply = useTicketMutation(replySupportTicket);
  const { busy, run } = useGuardedBusy();

  const submit = (v: Values) =>
    run(async () => {
      const env = await reply.mutateAsync({ ticket_number: ticketNumber, content: v.content, file_ids: (v.images ?? []).map((i) => i.file_id) });
      if (env.code === CODE.ok) form.resetFields();
    });

  return (
    <Form<Values> form={form} name="ticket-reply" layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item name="content" rules={rulesOf(replySupportTicket.body, 'content')}>
        <Input.TextArea aria-label={ticketMessages.supportReplyTitle} rows={4} maxLength={LIMITS.supportContentMax} showCount placeholder={ticketMessages.supportReplyPlaceholder} />
      </Form.Item>
      <Form.Item name="images">
        <ImagePicker />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {ticketMessages.supportReplySubmit}
      </Button>
    </Form>
  );
}
