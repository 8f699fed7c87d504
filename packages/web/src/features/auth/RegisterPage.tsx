import { accountMessages, BM, CODE, fmt, LIMITS, phoneValue, register, registerBody, sendRegisterCode, type SendType } from '@hublink/contract';
import { Button, Checkbox, Flex, Form, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { rulesOf, sameAs } from '../../api/rules';
import CodeButton from '../../components/CodeButton';
import { AreaCodeSelect } from '../../components/AreaCodeSelect';
import { AuthCard } from './AuthCard';
import { ToLoginResult } from './ToLoginResult';
import { emailRule, phoneRule } from './contactRules';

interface RegisterValues {
  nickname: string;
  username: string;
  password: string;
  newPassword: string;
  area: string;
  phone?: string;
  email?: string;
  code: string;
  terms: boolean;
}

const rules = {
  nickname: rulesOf(registerBody, 'nickname'),
  username: rulesOf(registerBody, 'username'),
  password: rulesOf(registerBody, 'password'),
  newPassword: [...rulesOf(registerBody, 'newPassword'), sameAs('password', BM.passwordMismatch)],
  code: rulesOf(registerBody, 'code'),
  phone: [phoneRule('area')],
  email: [emailRule],
  terms: [
    {
      validator: async (_rule: unknown, checked: unknown) => {
        if (!checked) throw new Error(BM.termsRequired);
      },
    },
  ],
};

const TABS: { key: SendType; label: string }[] = [
  { key: 'phone', label: BM.registerByPhone },
  { key: 'email', label: BM.registerByEmail },
];

const CARD_WIDTH = 480;

/** /register: a new main account, verified by a code sent to a phone or an email (spec 1 §2.4). */
export default function RegisterPage() {
  const [form] = Form.useForm<RegisterValues>();
  const [type, setType] = useState<SendType>('phone');
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const destination = (): string => {
    const v = form.getFieldsValue(['area', 'phone', 'email']) as Pick<RegisterValues, 'area' | 'phone' | 'email'>;
    return type === 'phone' ? phoneValue(v.area, v.phone ?? '') : (v.email ?? '').trim();
  };

  const sendCode = async (): Promise<boolean> => {
    try {
      await form.validateFields([type]);
    } catch {
      return false;
    }
    const env = await call(sendRegisterCode, { body: { send_type: type, send_value: destination() } });
    return env.code === CODE.ok;
  };

  const submit = async (v: RegisterValues) => {
    if (submitting) return;
    setSubmitting(true);
    const env = await call(register, {
      body: {
        nickname: v.nickname.trim(),
        username: v.username.trim(),
        password: v.password,
        newPassword: v.newPassword,
        code: v.code.trim(),
        type,
        verify: destination(),
      },
    });
    setSubmitting(false);
    if (env.code === CODE.ok) setDone(true);
  };

  if (done) {
    return (
      <AuthCard title={BM.registerTitle} width={CARD_WIDTH}>
        <ToLoginResult title={BM.registerSuccess} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={BM.registerTitle}
      width={CARD_WIDTH}
      extra={
        <Typography.Text type="secondary">
          {BM.haveAccount}<Link to="/login">{BM.loginNow}</Link>
        </Typography.Text>
      }
    >
      <Tabs activeKey={type} onChange={(k) => setType(k as SendType)} items={TABS} style={{ marginTop: -8 }} />
      <Form
        form={form}
        name="register"
        layout="vertical"
        requiredMark={false}
        initialValues={{ area: LIMITS.defaultAreaCode, terms: false }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="nickname" label={BM.nicknameLabel} rules={rules.nickname}>
          <Input placeholder={fmt(BM.nicknamePlaceholder, { min: LIMITS.nicknameMin, max: LIMITS.nicknameMax })} maxLength={LIMITS.nicknameMax} />
        </Form.Item>
        <Form.Item name="username" label={BM.usernameLabel} rules={rules.username}>
          <Input placeholder={fmt(BM.usernamePlaceholder, { min: LIMITS.usernameMin, max: LIMITS.usernameMax })} maxLength={LIMITS.usernameMax} autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label={BM.passwordLabel} rules={rules.password}>
          <Input.Password placeholder={fmt(BM.passwordPlaceholder, { min: LIMITS.passwordMin, max: LIMITS.passwordMax })} maxLength={LIMITS.passwordMax} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={BM.confirmPasswordLabel} rules={rules.newPassword} dependencies={['password']}>
          <Input.Password placeholder={BM.confirmPasswordPlaceholder} maxLength={LIMITS.passwordMax} autoComplete="new-password" />
        </Form.Item>
        {type === 'phone' ? (
          <Form.Item label={BM.phoneLabel} required>
            <Space.Compact block>
              <Form.Item name="area" noStyle>
                <AreaCodeSelect />
              </Form.Item>
              <Form.Item name="phone" noStyle rules={rules.phone} dependencies={['area']}>
                <Input placeholder={accountMessages.bindPhoneRequired} aria-label={BM.phoneLabel} inputMode="tel" autoComplete="tel-national" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        ) : (
          <Form.Item name="email" label={BM.emailLabel} rules={rules.email}>
            <Input placeholder={accountMessages.bindEmailRequired} maxLength={LIMITS.emailMax} inputMode="email" autoComplete="email" />
          </Form.Item>
        )}
        <Form.Item label={BM.codeLabel} required>
          <Flex gap={8}>
            <Form.Item name="code" noStyle rules={rules.code}>
              <Input placeholder={BM.codeMin} aria-label={BM.codeLabel} maxLength={LIMITS.codeLength} autoComplete="one-time-code" />
            </Form.Item>
            <CodeButton key={type} onSend={sendCode} style={{ flex: 'none' }} />
          </Flex>
        </Form.Item>
        <Form.Item name="terms" valuePropName="checked" rules={rules.terms}>
          <Checkbox>
            {BM.termsAgree}
            <Link to="/clause" target="_blank">
              {BM.termsClause}
            </Link>
            {BM.termsAnd}
            <Link to="/privacy" target="_blank">
              {BM.termsPrivacy}
            </Link>
          </Checkbox>
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            {BM.registerButton}
          </Button>
        </Form.Item>
      </Form>
    </AuthCard>
  );
}
