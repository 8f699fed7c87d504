import { accountMessages, BM, CODE, fmt, type SendType, verifyCode } from '@hublink/contract';
import { Alert, Button, Flex, Form, Radio, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { useUser } from '../../session/user';
import { sendCodeTo } from '../../api/sendCodeTo';
import { CodeInput } from '../../components/CodeInput';

const codeRules = rulesOf(verifyCode.body, 'code');
const PROOF = { phone: 'verify_phone', email: 'verify_email' } as const;

/**
 * Step 1 of the account wizards (spec 1 §2.8): choose phone (always offered) or email (only when
 * bound), get a code, next. Return leaves for /account; a link leads to support tickets. Without a
 * bound phone or email it shows `noContact` instead.
 */
export function VerifyStep({ onVerified, noContact = accountMessages.bindContactFirstShort }: { onVerified: () => void; noContact?: string }) {
  const user = useUser();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ send_type: SendType; code: string }>();
  const [busy, setBusy] = useState(false);
  const phone = user?.user_phone ?? '';
  const email = user?.user_email ?? '';
  const sendType = Form.useWatch('send_type', form) ?? (phone ? 'phone' : 'email');

  if (!user) return null;
  if (!phone && !email) {
    return (
      <Flex vertical gap={16} align="flex-start">
        <Alert type="warning" showIcon title={noContact} />
        <Flex gap={8}>
          <Button onClick={() => void navigate('/account')}>{BM.back}</Button>
          <Button type="primary" onClick={() => void navigate('/account')}>
            {accountMessages.goBind}
          </Button>
        </Flex>
      </Flex>
    );
  }

  const options = [
    { value: 'phone' as const, label: phone ? fmt(BM.channelPhone, { phone }) : fmt(BM.channelPhoneState, { state: BM.notBound }), disabled: !phone },
    ...(email ? [{ value: 'email' as const, label: fmt(BM.channelEmail, { email }) }] : []),
  ];

  const submit = async (v: { send_type: SendType; code: string }) => {
    if (busy) return;
    setBusy(true);
    const env = await call(verifyCode, { body: { send_type: v.send_type, verify_type: PROOF[v.send_type], code: v.code.trim() } });
    setBusy(false);
    if (env.code === CODE.ok) onVerified();
  };

  return (
    <Form
      form={form}
      name="account-verify"
      layout="vertical"
      requiredMark={false}
      style={{ maxWidth: 480 }}
      initialValues={{ send_type: phone ? 'phone' : 'email' }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item name="send_type" label={BM.resetChannel}>
        <Radio.Group options={options} />
      </Form.Item>
      <CodeInput
        rules={codeRules}
        sendKey={sendType}
        extra={accountMessages.codeArrivalHint}
        onSend={() => {
          // The form's own value: the watched one reaches this render a moment after a click on the other channel.
          const current = (form.getFieldValue('send_type') as SendType | undefined) ?? sendType;
          return sendCodeTo(current, PROOF[current], async () => (current === 'phone' ? phone : email));
        }}
      />
      <Flex gap={8} align="center" wrap>
        <Button onClick={() => void navigate('/account')}>{BM.back}</Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          {BM.nextStep}
        </Button>
        <Typography.Text type="secondary">
          {accountMessages.cannotReceiveCode}<Link to="/ticket/lists">{BM.submitTicket}</Link>
        </Typography.Text>
      </Flex>
    </Form>
  );
}
