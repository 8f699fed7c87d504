import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { CODE, LIMITS, login, loginRam, M } from '@hublink/contract';
import { Button, Card, Col, Flex, Form, Input, Row, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { session } from '../../api/session';
import { setUser } from '../../app/user';
import { CaptchaField } from './CaptchaField';
import { ProductPanel } from './ProductPanel';
import { safeRedirect } from './redirect';
import { useCaptcha } from './useCaptcha';

/** Login modes of spec 1 §2.3: 1 main account (default), 2 sub-account. */
const LOGIN_MODE = { main: 1, ram: 2 } as const;
type LoginMode = (typeof LOGIN_MODE)[keyof typeof LOGIN_MODE];

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

const PANEL_WIDTH = 960;

/** /login: main or sub-account sign-in with an image captcha (spec 1 §2.3). */
export default function LoginPage() {
  const [mode, setMode] = useState<LoginMode>(LOGIN_MODE.main);
  const [form] = Form.useForm<LoginValues>();
  const [submitting, setSubmitting] = useState(false);
  const captcha = useCaptcha();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const isRam = mode === LOGIN_MODE.ram;

  const switchMode = (next: LoginMode) => {
    setMode(next);
    form.setFields([{ name: 'username', errors: [] }]);
  };

  const submit = async (v: LoginValues) => {
    if (submitting) return;
    setSubmitting(true);
    const env = await call(isRam ? loginRam : login, {
      body: { username: v.username.trim(), password: v.password, code: v.code.trim(), uniqid: captcha.uniqid },
    });
    setSubmitting(false);
    if (env.code === CODE.ok && env.data) {
      session.setToken(env.data.access_token, env.data.token_expire_time);
      setUser(env.data.user); // session.setUser, and every screen watching the user hears of it
      navigate(safeRedirect(params.get('redirect')), { replace: true });
      return;
    }
    // The captcha was spent by this attempt: clear the answer and show a new image.
    form.setFieldValue('code', '');
    void captcha.refresh();
  };

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      <Card style={{ width: '100%', maxWidth: PANEL_WIDTH, overflow: 'hidden' }} styles={{ body: { padding: 0 } }}>
        <Row>
          <Col xs={0} lg={12}>
            <ProductPanel />
          </Col>
          <Col xs={24} lg={12}>
            <div style={{ padding: '44px 40px 32px' }}>
              <Flex justify="space-between" align="baseline" style={{ marginBottom: 28 }}>
                <Typography.Title level={3} style={{ margin: 0 }}>
                  {isRam ? M.ramLoginTitle : M.loginTitle}
                </Typography.Title>
                <Typography.Link onClick={() => switchMode(isRam ? LOGIN_MODE.main : LOGIN_MODE.ram)}>
                  {isRam ? '主账号登录' : M.ramLoginTitle}
                </Typography.Link>
              </Flex>
              <Form form={form} name="login" size="large" onFinish={(v) => void submit(v)} autoComplete="on" requiredMark={false}>
                <Form.Item
                  name="username"
                  rules={loginRules.username}
                  extra={isRam ? '子账号请使用“账号@企业域名”登录，域名可向主账号管理员获取' : undefined}
                >
                  <Input
                    prefix={<UserOutlined />}
                    placeholder={isRam ? '子账号@企业域名' : '用户名/手机号/邮箱'}
                    aria-label="账号"
                    autoComplete="username"
                  />
                </Form.Item>
                <Form.Item name="password" rules={loginRules.password}>
                  <Input.Password
                    prefix={<LockOutlined />}
                    placeholder="密码"
                    aria-label="密码"
                    maxLength={LIMITS.passwordMax}
                    autoComplete="current-password"
                  />
                </Form.Item>
                <CaptchaField name="code" rules={loginRules.code} captcha={captcha} />
                <Form.Item style={{ marginBottom: 16 }}>
                  <Button type="primary" htmlType="submit" block loading={submitting}>
                    登录
                  </Button>
                </Form.Item>
              </Form>
              <Flex justify="space-between">
                <Link to="/reset">忘记密码</Link>
                <Link to="/register">注册账号</Link>
              </Flex>
            </div>
          </Col>
        </Row>
      </Card>
    </Flex>
  );
}
