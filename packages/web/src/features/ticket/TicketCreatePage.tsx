import { CODE, createSupportTicket, fmt, LIMITS, SUPPORT_TYPES, type SupportAttachment, ticketMessages } from '@hublink/contract';
import { Button, Flex, Form, Input, Radio } from 'antd';
import { useNavigate } from 'react-router';
import { rulesOf } from '../../api/rules';
import { PageContainer } from '../../components/PageContainer';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { ImagePicker } from './ImagePicker';
import { TICKET_LIST_PATH, ticketDetailPath, useTicketMutation } from './api';

interface Values {
  title: string;
  content: string;
  type: number;
  images?: SupportAttachment[];
}

const body = createSupportTicket.body;

/**
 * /ticket/create (spec 3 §2, §5): title, overview, problem type and up to 3 images, each rule the
 * server's own message before any call; submit opens the new ticket, back goes to the list.
 */
export default function TicketCreatePage() {
  const navigate = useNavigate();
  const create = useTicketMutation(createSupportTicket);
  const { busy, run } = useGuardedBusy();

  const submit = (v: Values) =>
    run(async () => {
      const env = await create.mutateAsync({ title: v.title, content: v.content, type: v.type, file_ids: (v.images ?? []).map((i) => i.file_id) });
      if (env.code === CODE.ok && env.data) void navigate(ticketDetailPath(env.data.ticket_number), { replace: true });
    });

  return (
    <PageContainer>
      <Form<Values> name="ticket-create" layout="vertical" requiredMark={false} style={{ maxWidth: 720 }} onFinish={(v) => void submit(v)}>
        <Form.Item name="title" label={ticketMessages.supportFieldTitle} rules={rulesOf(body, 'title')}>
          <Input maxLength={LIMITS.supportTitleMax} showCount placeholder={fmt(ticketMessages.supportTitleHint, { min: LIMITS.supportTitleMin, max: LIMITS.supportTitleMax })} />
        </Form.Item>
        <Form.Item name="content" label={ticketMessages.supportFieldContent} rules={rulesOf(body, 'content')}>
          <Input.TextArea
            rows={6}
            maxLength={LIMITS.supportContentMax}
            showCount
            placeholder={fmt(ticketMessages.supportContentHint, { n: LIMITS.supportContentMin })}
          />
        </Form.Item>
        <Form.Item name="type" label={ticketMessages.supportFieldType} rules={rulesOf(body, 'type')}>
          <Radio.Group options={SUPPORT_TYPES.map((t) => ({ value: t.value, label: t.label }))} />
        </Form.Item>
        <Form.Item name="images" label={ticketMessages.supportFieldImages}>
          <ImagePicker />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={busy}>
            {ticketMessages.supportSubmit}
          </Button>
          <Button onClick={() => void navigate(TICKET_LIST_PATH)}>{ticketMessages.supportBack}</Button>
        </Flex>
      </Form>
    </PageContainer>
  );
}
