import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { authenticate, BM, CODE, findPassword, findPasswordCode, fmt, LIMITS, resetPassword, resetPasswordBody, type SendType } from '@hublink/contract';
import { Button, Flex, Form, Input, Radio, Steps, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { toast } from '../../api/notify';
import { rulesOf, sameAs } from '../../api/rules';
import CodeButton from '../../components/CodeButton';
import { AuthCard } from './AuthCard';
import { CaptchaField } from './CaptchaField';
import { ToLoginResult } from './ToLoginResult';
import { useCaptcha } from './useCaptcha';

/** A recovery under way: named by the captcha's uniqid of step 1; the channels the account has. */
interface Recovery {
  uniqid: string;
  phone?: string;
  email?: string;
}

const STEPS = [{ title: BM.resetStepAccount }, { title: BM.resetStepIdentity }, { title: BM.resetStepPassword }];
const DONE = STEPS.length;
const CARD_WIDTH = 560;

const rules = {
  username: rulesOf(findPassword.body, 'username'),
  img_code: rulesOf(findPassword.body, 'img_code'),
  code: rulesOf(authenticate.body, 'code'),
  password: rulesOf(resetPasswordBody, 'password'),
  reset_password: [...rulesOf(resetPasswordBody, 'reset_password'), sameAs('password', BM.passwordMismatch)],
};

/** Step 1: username and image code; the answer says which channels can receive a code. */
function AccountStep({ onFound }: { onFound: (r: Recovery) => void }) {
  const [form] = Form.useForm<{ username: string; img_code: string }>();
  const [submitting, setSubmitting] = useState(false);
  const captcha = useCaptcha();

  const submit = async (v: { username: string; img_code: string }) => {
    if (submitting) return;
    setSubmitting(true);
    const uniqid = captcha.uniqid;
    const env = await call(findPassword, { body: { username: v.username.trim(), img_code: v.img_code.trim(), uniqid } }, { successToast: false });
    setSubmitting(false);
    if (env.code === CODE.ok && (env.data?.phone || env.data?.email)) {
      onFound({ uniqid, phone: env.data.phone, email: env.data.email });
      return;
    }
    if (env.code === CODE.ok) toast.warning(BM.noRecoveryChannel);
    form.setFieldValue('img_code', '');
    void captcha.refresh();
  };

  return (
    <Form form={form} name="reset-account" size="large" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item name="username" rules={rules.username}>
        <Input prefix={<UserOutlined />} placeholder={BM.usernamePrompt} aria-label={BM.usernameLabel} autoComplete="username" />
      </Form.Item>
      <CaptchaField name="img_code" rules={rules.img_code} captcha={captcha} />
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {BM.nextStep}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Step 2: a code sent to the bound phone or email. */
function IdentityStep({ recovery, onVerified, onRestart }: { recovery: Recovery; onVerified: () => void; onRestart: () => void }) {
  const [form] = Form.useForm<{ send_type: SendType; code: string }>();
  const [submitting, setSubmitting] = useState(false);
  const sendType = Form.useWatch('send_type', form) ?? (recovery.phone ? 'phone' : 'email');
  const channels = [
    ...(recovery.phone ? [{ value: 'phone' as const, label: fmt(BM.channelPhone, { phone: recovery.phone }) }] : []),
    ...(recovery.email ? [{ value: 'email' as const, label: fmt(BM.channelEmail, { email: recovery.email }) }] : []),
  ];

  const sendCode = async () => {
    // The form's own value: the watched one reaches this render a moment after a click on the other channel.
    const current = (form.getFieldValue('send_type') as SendType | undefined) ?? sendType;
    const env = await call(findPasswordCode, { body: { uniqid: recovery.uniqid, send_type: current } });
    return env.code === CODE.ok;
  };

  const submit = async (v: { send_type: SendType; code: string }) => {
    if (submitting) return;
    setSubmitting(true);
    const env = await call(authenticate, { body: { uniqid: recovery.uniqid, send_type: v.send_type, code: v.code.trim() } });
    setSubmitting(false);
    if (env.code === CODE.ok) onVerified();
  };

  return (
    <Form
      form={form}
      name="reset-identity"
      size="large"
      layout="vertical"
      requiredMark={false}
      initialValues={{ send_type: channels[0]?.value }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item name="send_type" label={BM.resetChannel}>
        <Radio.Group options={channels} />
      </Form.Item>
      <Form.Item
        label={BM.codeLabel}
        required
        extra={BM.resetCodeHint}
      >
        <Flex gap={8}>
          <Form.Item name="code" noStyle rules={rules.code}>
            <Input placeholder={BM.codeMin} aria-label={BM.codeLabel} maxLength={LIMITS.codeLength} autoComplete="one-time-code" />
          </Form.Item>
          <CodeButton key={sendType} onSend={sendCode} size="large" style={{ flex: 'none' }} />
        </Flex>
      </Form.Item>
      <Flex gap={12}>
        <Button onClick={onRestart} style={{ flex: 1 }}>
          {BM.previousStep}
        </Button>
        <Button type="primary" htmlType="submit" loading={submitting} style={{ flex: 1 }}>
          {BM.nextStep}
        </Button>
      </Flex>
    </Form>
  );
}

/** Step 3: the new password, twice. */
function PasswordStep({ recovery, onReset }: { recovery: Recovery; onReset: () => void }) {
  const [form] = Form.useForm<{ password: string; reset_password: string }>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (v: { password: string; reset_password: string }) => {
    if (submitting) return;
    setSubmitting(true);
    const env = await call(resetPassword, { body: { password: v.password, reset_password: v.reset_password, uniqid: recovery.uniqid } });
    setSubmitting(false);
    if (env.code === CODE.ok) onReset();
  };

  return (
    <Form form={form} name="reset-password" size="large" requiredMark={false} onFinish={(v) => void submit(v)}>
      <Form.Item name="password" rules={rules.password}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={fmt(BM.newPasswordPlaceholder, { min: LIMITS.passwordMin, max: LIMITS.passwordMax })}
          aria-label={BM.newPassword}
          maxLength={LIMITS.passwordMax}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item name="reset_password" rules={rules.reset_password} dependencies={['password']}>
        <Input.Password prefix={<LockOutlined />} placeholder={BM.repeatNewPassword} aria-label={BM.repeatPassword} maxLength={LIMITS.passwordMax} autoComplete="new-password" />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {BM.confirmChange}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** /reset: password recovery in three steps (spec 1 §2.5), then back to login. */
export default function ResetPage() {
  const [step, setStep] = useState(0);
  const [recovery, setRecovery] = useState<Recovery | null>(null);

  const restart = () => {
    setRecovery(null);
    setStep(0);
  };

  return (
    <AuthCard
      title={BM.resetTitle}
      width={CARD_WIDTH}
      extra={
        <Typography.Text type="secondary">
          {BM.rememberPassword}<Link to="/login">{BM.goLogin}</Link>
        </Typography.Text>
      }
    >
      <Steps current={step} items={STEPS} size="small" style={{ marginBottom: 32 }} />
      {step === 0 && (
        <AccountStep
          onFound={(r) => {
            setRecovery(r);
            setStep(1);
          }}
        />
      )}
      {step === 1 && recovery && <IdentityStep recovery={recovery} onVerified={() => setStep(2)} onRestart={restart} />}
      {step === 2 && recovery && <PasswordStep recovery={recovery} onReset={() => setStep(DONE)} />}
      {step === DONE && <ToLoginResult title={BM.resetSuccess} />}
    </AuthCard>
  );
}
