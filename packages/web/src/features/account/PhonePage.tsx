import { accountMessages, BM, editPhone, editPhoneBody, LIMITS, phoneValue } from '@hublink/contract';
import { Button, Form } from 'antd';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../session/user';
import { sendCodeTo } from '../../api/sendCodeTo';
import { CodeInput } from '../../components/CodeInput';
import { MobileInput, mobileRule } from './fields';
import { VerifyStep } from './VerifyStep';
import { DoneStep, useWizard, Wizard, WizardActions } from './Wizard';

const rules = { phone: [mobileRule(BM.phoneRequired)], code: rulesOf(editPhoneBody, 'code') };

interface Values {
  area_code: string;
  phone: string;
  code: string;
}

const EMPTY: Values = { area_code: LIMITS.defaultAreaCode, phone: '', code: '' };

/**
 * /account/phone: verification, new phone (dial code, mobile, SMS code), success (spec 1 §2.8). Back
 * from success resets the fields and starts over; from the other steps it leaves for /account.
 */
export default function PhonePage() {
  const [form] = Form.useForm<Values>();
  const { step, setStep, busy, submit: send, toAccount } = useWizard(editPhone, () => void reloadUser());
  const submit = (v: Values) => send({ area_code: v.area_code, phone: v.phone.trim(), code: v.code.trim() });

  const target = async () => {
    try {
      const v = (await form.validateFields(['area_code', 'phone'])) as Values;
      return phoneValue(v.area_code, v.phone);
    } catch {
      return null;
    }
  };

  const restart = () => {
    form.resetFields();
    setStep(0);
  };

  return (
    <Wizard step={step} titles={[accountMessages.wizardIdentity, accountMessages.wizardNewPhone, accountMessages.wizardDone]}>
      {step === 0 && <VerifyStep onVerified={() => setStep(1)} />}
      {step === 1 && (
        <Form<Values>
          form={form}
          name="account-phone"
          layout="vertical"
          requiredMark={false}
          style={{ maxWidth: 480 }}
          initialValues={EMPTY}
          onFinish={(v) => void submit(v)}
        >
          <MobileInput label={accountMessages.wizardNewPhone} rules={rules.phone} />
          <CodeInput rules={rules.code} onSend={() => sendCodeTo('phone', 'edit_phone', target)} />
          <WizardActions busy={busy} onBack={toAccount} />
        </Form>
      )}
      {step === 2 && (
        <DoneStep
          title={accountMessages.phoneChanged}
          onBack={restart}
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
