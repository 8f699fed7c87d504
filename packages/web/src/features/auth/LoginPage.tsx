import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { BM, CODE, LIMITS, login, loginRam } from '@hublink/contract';
import { Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { sessionNotice } from '../../api/session';
import { startSession } from '../../session/user';
import { CaptchaField } from './CaptchaField';
import { ProductPanel } from './ProductPanel';
import { safeRedirect } from './redirect';
import { useCaptcha } from './useCaptcha';

/**
 * Sign-in modes of spec 1 §2.3: the main account (default), or a sub-account at /login?mode=ram, so
 * a reload or a shared link stays in sub-account mode. The other parameters (redirect) are kept.
 */
const MODE_PARAM = 'mode';
const RAM_MODE = 'ram';

interface LoginValues {
  username: string;
  password: string;
  code: string;
}

const loginRules = {
  username: rulesOf(login.body, 'username'),
  password: rulesOf(login.body, 'password'),
  code: rulesOf(login.body, 'code'),
};

/** /login: main or sub-account sign-in with an image captcha (spec 1 §2.3). */
export default function LoginPage() {
  const [form] = Form.useForm<LoginValues>();
  const [submitting, setSubmitting] = useState(false);
  const captcha = useCaptcha();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const isRam = params.get(MODE_PARAM) === RAM_MODE;
  // Why the last session ended ('登录已过期，请重新登录!'), told across the reload that ended it.
  const [notice] = useState(() => sessionNotice.get());

  /** The same address in the other mode (the redirect and other parameters kept). */
  const modeSearch = (ram: boolean) => {
    const next = new URLSearchParams(params);
    if (ram) next.set(MODE_PARAM, RAM_MODE);
    else next.delete(MODE_PARAM);
    return `?${next.toString()}`;
  };

  const submit = async (v: LoginValues) => {
    if (submitting) return;
    setSubmitting(true);
    const env = await call(isRam ? loginRam : login, {
      body: { username: v.username.trim(), password: v.password, code: v.code.trim(), uniqid: captcha.uniqid },
    });
    setSubmitting(false);
    if (env.code === CODE.ok && env.data) {
      // The token, and the user every screen (and every other tab) watches.
      startSession(env.data.access_token, env.data.token_expire_time, env.data.user);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
      return;
    }
    // The captcha was spent by this attempt: clear the answer and show a new image.
    form.setFieldValue('code', '');
    void captcha.refresh();
  };

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      {/* A plain panel, not antd's Card (which brings Tabs, Dropdown and Menu into the sign-in route). */}
      <section className="hl-login-panel">
        <ProductPanel />
        <div className="hl-login-form">
        <Flex justify="space-between" align="baseline" style={{ marginBottom: 28 }}>
          <h1 className="hl-login-title">{isRam ? BM.ramLoginTitle : BM.loginTitle}</h1>
          <Link to={{ search: modeSearch(!isRam) }} replace onClick={() => form.setFields([{ name: 'username', errors: [] }])}>
            {isRam ? BM.mainLoginTitle : BM.ramLoginTitle}
          </Link>
        </Flex>
        {notice && (
          <div role="alert" className="hl-login-notice">
            {notice}
          </div>
        )}
        <Form form={form} name="login" size="large" onFinish={(v) => void submit(v)} autoComplete="on" requiredMark={false}>
          <Form.Item name="username" rules={loginRules.username} extra={isRam ? BM.ramLoginHint : undefined}>
            <Input
              prefix={<UserOutlined />}
              placeholder={isRam ? BM.ramLoginPlaceholder : BM.loginPlaceholder}
              aria-label={BM.loginAccountLabel}
              autoComplete="username"
            />
          </Form.Item>
          <Form.Item name="password" rules={loginRules.password}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={BM.loginPasswordLabel}
              aria-label={BM.loginPasswordLabel}
              maxLength={LIMITS.passwordMax}
              autoComplete="current-password"
            />
          </Form.Item>
          <CaptchaField name="code" rules={loginRules.code} captcha={captcha} />
          <Form.Item style={{ marginBottom: 16 }}>
            <Button type="primary" htmlType="submit" block loading={submitting}>
              {BM.loginButton}
            </Button>
          </Form.Item>
        </Form>
        {/* A sub-account neither registers nor recovers its password: its main account manages it. */}
        {!isRam && (
          <Flex justify="space-between">
            <Link to="/reset">{BM.forgotPassword}</Link>
            <Link to="/register">{BM.registerTitle}</Link>
          </Flex>
        )}
        </div>
      </section>
    </Flex>
  );
}
