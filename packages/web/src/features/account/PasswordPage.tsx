import { accountMessages, BM, editPassword, editPasswordBody, LIMITS } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf, sameAs } from '../../api/rules';
import { VerifyStep } from './VerifyStep';
import { DoneStep, useWizard, Wizard, WizardActions } from './Wizard';

const rules = {
  new_password: rulesOf(editPasswordBody, 'new_password'),
  reset_password: [...rulesOf(editPasswordBody, 'reset_password'), sameAs('new_password', BM.passwordMismatch)],
};

interface Values {
  new_password: string;
  reset_password: string;
}

/** /account/password: identity, new password twice, success (spec 1 §2.8). Back always leaves for /account. */
export default function PasswordPage() {
  const { step, setStep, busy, submit, toAccount } = useWizard(editPassword);

  return (
    <Wizard step={step} titles={[accountMessages.wizardIdentity, accountMessages.wizardNewPassword, accountMessages.wizardDone]}>
      {step === 0 && <VerifyStep noContact={accountMessages.bindContactFirst} onVerified={() => setStep(1)} />}
      {step === 1 && (
        <Form<Values> name="account-password" layout="vertical" requiredMark={false} style={{ maxWidth: 480 }} onFinish={(v) => void submit(v)}>
          <Form.Item name="new_password" label={BM.newPassword} rules={rules.new_password}>
            <Input.Password aria-label={BM.newPassword} maxLength={LIMITS.passwordMax} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="reset_password" label={BM.repeatPassword} rules={rules.reset_password} dependencies={['new_password']}>
            <Input.Password aria-label={BM.repeatPassword} maxLength={LIMITS.passwordMax} autoComplete="new-password" />
          </Form.Item>
          <WizardActions busy={busy} onBack={toAccount} />
        </Form>
      )}
      {step === 2 && <DoneStep title={accountMessages.passwordChanged} onBack={toAccount} />}
    </Wizard>
  );
}
