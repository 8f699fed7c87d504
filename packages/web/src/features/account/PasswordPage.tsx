import { CODE, editPassword, editPasswordBody, LIMITS, M } from '@hublink/contract';
import { Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { rulesOf, sameAs } from '../../api/rules';
import { VerifyStep } from './VerifyStep';
import { DoneStep, Wizard } from './Wizard';

const rules = {
  new_password: rulesOf(editPasswordBody, 'new_password'),
  reset_password: [...rulesOf(editPasswordBody, 'reset_password'), sameAs('new_password', M.passwordMismatch)],
};

interface Values {
  new_password: string;
  reset_password: string;
}

/** /account/password: identity, new password twice, success (spec 1 §2.8). Back always leaves for /account. */
export default function PasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const toAccount = () => void navigate('/account');

  const submit = async (v: Values) => {
    if (busy) return;
    setBusy(true);
    const env = await call(editPassword, { body: v });
    setBusy(false);
    if (env.code === CODE.ok) setStep(2);
    else if (env.msg === M.recoveryNotVerified) setStep(0);
  };

  return (
    <Wizard step={step} titles={['身份验证', '设置新密码', '修改成功']}>
      {step === 0 && <VerifyStep noContact={M.bindContactFirst} onVerified={() => setStep(1)} />}
      {step === 1 && (
        <Form<Values> name="account-password" layout="vertical" requiredMark={false} style={{ maxWidth: 480 }} onFinish={(v) => void submit(v)}>
          <Form.Item name="new_password" label="新密码" rules={rules.new_password}>
            <Input.Password aria-label="新密码" maxLength={LIMITS.passwordMax} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="reset_password" label="重复密码" rules={rules.reset_password} dependencies={['new_password']}>
            <Input.Password aria-label="重复密码" maxLength={LIMITS.passwordMax} autoComplete="new-password" />
          </Form.Item>
          <Flex gap={8}>
            <Button onClick={toAccount}>返回</Button>
            <Button type="primary" htmlType="submit" loading={busy}>
              确认修改
            </Button>
          </Flex>
        </Form>
      )}
      {step === 2 && <DoneStep title="密码修改成功" onBack={toAccount} />}
    </Wizard>
  );
}
