import { BM, CM, CODE, fmt, type LoginSourceItem, loginSources, selfAuthorize, selfLogin, type SelfSession, SM } from '@hublink/contract';
import { Alert, Button, Card, Divider, Flex, Form, Input, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { urlOf } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { canSignInWithSource, selfCall, startSourceSignIn } from './selfApi';

interface Props {
  /** The tenant's ID code (from the link the administrator gave, or the last source sign-in): its sources are offered. */
  idCode: string;
  /** Why the page is back at the form (an expired session, a refused source sign-in). */
  notice: string;
  onSignedIn: (s: SelfSession) => void;
}

/** The member's sign-in: its login and password, or one of its tenant's sources. */
export function SignInCard({ idCode, notice, onSignedIn }: Props) {
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ login: string; password: string }>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const [sources, setSources] = useState<LoginSourceItem[]>([]);

  useEffect(() => {
    if (!idCode || !canSignInWithSource()) return;
    let live = true;
    void selfCall(loginSources, { query: { code: idCode } }).then((env) => {
      if (live && env.code === CODE.ok) setSources(env.data ?? []);
    });
    return () => {
      live = false;
    };
  }, [idCode]);

  const submit = async (v: { login: string; password: string }) => {
    setBusy(true);
    setRefusal('');
    const env = await selfCall(selfLogin, { body: v });
    setBusy(false);
    if (env.code === CODE.ok && env.data) onSignedIn(env.data);
    else setRefusal(env.msg || BM.dataError);
  };

  const withSource = async (source: LoginSourceItem) => {
    const challenge = await startSourceSignIn(idCode);
    window.location.assign(urlOf(selfAuthorize, { code: idCode, source: source.id, code_challenge: challenge }));
  };

  return (
    <Card variant="borderless" style={{ width: '100%', maxWidth: 440, margin: '0 auto' }}>
      <Flex vertical gap={token.marginSM}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4 }}>
          {SM.selfTitle}
        </Typography.Title>
        <Typography.Text type="secondary">{SM.selfIntro}</Typography.Text>
        {(refusal || notice) && <Alert type="error" showIcon title={refusal || notice} />}
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} style={{ marginTop: token.marginXS }}>
          <Form.Item name="login" label={SM.selfLoginLabel} rules={rulesOf(selfLogin.body, 'login')}>
            <Input size="large" autoComplete="username" placeholder={SM.selfLoginPlaceholder} />
          </Form.Item>
          <Form.Item name="password" label={CM.connectPassword} rules={rulesOf(selfLogin.body, 'password')}>
            <Input.Password size="large" autoComplete="current-password" placeholder={SM.selfPasswordPlaceholder} />
          </Form.Item>
          <Button type="primary" size="large" htmlType="submit" block loading={busy} autoInsertSpace={false}>
            {SM.selfSignIn}
          </Button>
        </Form>
        {sources.length > 0 && (
          <>
            <Divider plain style={{ margin: `${token.marginXS}px 0` }}>
              {SM.selfOrSource}
            </Divider>
            <Flex vertical gap={token.marginXS}>
              {sources.map((s) => (
                <Button key={s.id} block onClick={() => void withSource(s)}>
                  {fmt(SM.selfSourceSignIn, { name: s.name })}
                </Button>
              ))}
            </Flex>
          </>
        )}
      </Flex>
    </Card>
  );
}
