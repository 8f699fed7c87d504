import { accountMessages, BM, editEmail, editEmailBody, LIMITS } from '@hublink/contract';
import { Button, Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../session/user';
import { sendCodeTo } from '../../api/sendCodeTo';
import { CodeInput } from '../../components/CodeInput';
import { VerifyStep } from './VerifyStep';
import { DoneStep, useWizard, Wizard, WizardActions } from './Wizard';

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
  const [form] = Form.useForm<Values>();
  const { step, setStep, busy, submit: send, toAccount } = useWizard(editEmail, () => void reloadUser());
  const submit = (v: Values) => send({ email: v.email.trim(), code: v.code.trim() });

  const target = async () => {
    try {
      return ((await form.validateFields(['email'])) as Values).email.trim();
    } catch {
      return null;
    }
  };

  return (
    <Wizard step={step} titles={[accountMessages.wizardIdentity, accountMessages.wizardNewEmail, accountMessages.wizardDone]}>
      {step === 0 && <VerifyStep onVerified={() => setStep(1)} />}
      {step === 1 && (
        <Form<Values> form={form} name="account-email" layout="vertical" requiredMark={false} style={{ maxWidth: 480 }} onFinish={(v) => void submit(v)}>
          <Form.Item name="email" label={accountMessages.wizardNewEmail} rules={rules.email}>
            <Input placeholder={accountMessages.newEmailPrompt} aria-label={accountMessages.wizardNewEmail} maxLength={LIMITS.emailMax} autoComplete="email" />
          </Form.Item>
          <CodeInput rules={rules.code} onSend={() => sendCodeTo('email', 'edit_email', target)} />
          <WizardActions busy={busy} onBack={toAccount} />
        </Form>
      )}
      {step === 2 && (
        <DoneStep
          title={accountMessages.emailChanged}
          onBack={() => setStep(1)}
          extra={
            <Button key="done" type="primary" onClick={toAccount}>
              {BM.done}
            </Button>
          }
        />
      )}
    </Wizard>
  );
}
