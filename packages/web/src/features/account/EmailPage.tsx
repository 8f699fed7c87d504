import { CODE, editEmail, editEmailBody, LIMITS, M } from '@hublink/contract';
import { Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../app/user';
import { CodeInput, sendCodeTo } from './fields';
import { VerifyStep } from './VerifyStep';
import { DoneStep, Wizard } from './Wizard';

const rules = { email: rulesOf(editEmailBody, 'email'), code: rulesOf(editEmailBody, 'code') };

interface Values {
  email: string;
  code: string;
}

/**
 * /account/email: identity, new email plus its code, success (spec 1 §2.8). Back from the success
 * step returns to the new-email step; otherwise back leaves for /account.
 */
export default function EmailPage() {
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const toAccount = () => void navigate('/account');

  const submit = async (v: Values) => {
    if (busy) return;
    setBusy(true);
    const env = await call(editEmail, { body: { email: v.email.trim(), code: v.code.trim() } });
    setBusy(false);
    if (env.code === CODE.ok) {
      void reloadUser();
      setStep(2);
    } else if (env.msg === M.recoveryNotVerified) setStep(0);
  };

  const target = async () => {
    try {
      return ((await form.validateFields(['email'])) as Values).email.trim();
    } catch {
      return null;
    }
  };

  return (
    <Wizard step={step} titles={['身份验证', '新邮箱', '修改成功']}>
      {step === 0 && <VerifyStep onVerified={() => setStep(1)} />}
      {step === 1 && (
        <Form<Values> form={form} name="account-email" layout="vertical" requiredMark={false} style={{ maxWidth: 480 }} onFinish={(v) => void submit(v)}>
          <Form.Item name="email" label="新邮箱" rules={rules.email}>
            <Input placeholder="请输入新邮箱" aria-label="新邮箱" maxLength={LIMITS.emailMax} autoComplete="email" />
          </Form.Item>
          <CodeInput rules={rules.code} onSend={() => sendCodeTo('email', 'edit_email', target)} />
          <Flex gap={8}>
            <Button onClick={toAccount}>返回</Button>
            <Button type="primary" htmlType="submit" loading={busy}>
              确认修改
            </Button>
          </Flex>
        </Form>
      )}
      {step === 2 && (
        <DoneStep
          title="邮箱修改成功"
          onBack={() => setStep(1)}
          extra={
            <Button key="done" type="primary" onClick={toAccount}>
              完成
            </Button>
          }
        />
      )}
    </Wizard>
  );
}
