import { AndroidFilled, AppleFilled, LinuxOutlined, LogoutOutlined, WindowsFilled } from '@ant-design/icons';
import { BM, CM, CODE, fmt, selfLogout, selfProfiles, type SelfProfiles, type SelfSession, selfTicket, SM } from '@hublink/contract';
import { Button, Card, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { NetworkCard } from './NetworkCard';
import { memberSession, savedIdCode, selfCall, takeVerifier } from './selfApi';
import { SignInCard } from './SignInCard';

/** How to connect on each platform (the download page's standard clients, the member dialog's texts). */
const HOW_TO: { key: string; icons: ReactNode; text: string }[] = [
  { key: 'desktop', icons: [<WindowsFilled key="w" />, <AppleFilled key="a" />], text: SM.selfHowDesktop },
  { key: 'tunnelblick', icons: [<AppleFilled key="a" />], text: CM.profileHowToMac },
  { key: 'mobile', icons: [<AppleFilled key="i" />, <AndroidFilled key="d" />], text: SM.selfHowMobile },
  { key: 'linux', icons: [<LinuxOutlined key="l" />], text: CM.profileHowToLinux },
];

function HowTo({ me }: { me: SelfProfiles }) {
  const { token } = theme.useToken();
  return (
    <Card variant="borderless" title={SM.selfHowTo}>
      <Flex vertical gap={token.marginSM}>
        {HOW_TO.map((h) => (
          <Flex key={h.key} gap={token.marginSM} align="flex-start">
            <span style={{ fontSize: 18, color: token.colorTextSecondary, display: 'flex', gap: 4, flex: 'none', minWidth: 44, marginTop: 3 }}>{h.icons}</span>
            <Typography.Text style={{ wordBreak: 'break-word' }}>{h.text}</Typography.Text>
          </Flex>
        ))}
        <Typography.Text type="secondary">
          {fmt(SM.selfUsernameLine, { value: me.phone ? fmt(CM.profileUsernameHint, { login: me.login, phone: me.phone }) : me.login })}
        </Typography.Text>
        <Typography.Text type="secondary">{fmt(SM.selfPasswordLine, { value: CM.profilePasswordHint })}</Typography.Text>
        <Typography.Text type="warning">{CM.profileKeepPrivate}</Typography.Text>
      </Flex>
    </Card>
  );
}

/**
 * /self (issue 30): a software member signs in with its own login (name@sign or its bound phone, and
 * its password or directory password) or its tenant's source (`?code=ID` names the tenant), then
 * downloads its own profiles and shows a single-use link as a QR code for a phone. The member's session
 * is the page's own (selfApi.ts), never a console account's.
 */
export default function SelfServicePage() {
  const { token } = theme.useToken();
  const [params, setParams] = useSearchParams();
  const [session, setSession] = useState<string | null>(() => memberSession.token());
  const [me, setMe] = useState<SelfProfiles | null>(null);
  const [notice, setNotice] = useState('');
  const redeeming = useRef(false);
  const idCode = params.get('code') ?? savedIdCode();

  const signedIn = useCallback((s: SelfSession) => {
    memberSession.set(s);
    setNotice('');
    setSession(s.token);
  }, []);

  const lost = useCallback((_code: number, msg: string) => {
    memberSession.clear();
    setMe(null);
    setSession(null);
    setNotice(msg || SM.selfSessionExpired);
  }, []);

  // Back from a source sign-in: a ticket to redeem (once), or the reason it failed.
  useEffect(() => {
    const ticket = params.get('ticket');
    const failure = params.get('error_description') ?? (params.get('error') ? BM.dataError : null);
    if (!ticket && failure === null) return;
    const clean = () => setParams(idCode ? { code: idCode } : {}, { replace: true });
    if (failure !== null) {
      setNotice(fmt(SM.selfSourceFailed, { reason: failure }));
      clean();
      return;
    }
    if (redeeming.current) return;
    redeeming.current = true;
    const verifier = takeVerifier();
    void (verifier ? selfCall(selfTicket, { body: { ticket: ticket!, code_verifier: verifier } }) : Promise.resolve({ code: CODE.invalid, msg: SM.selfSourceTicketInvalid })).then((env) => {
      redeeming.current = false;
      if (env.code === CODE.ok && 'data' in env && env.data) signedIn(env.data);
      else setNotice(env.msg || SM.selfSourceTicketInvalid);
      clean();
    });
  }, [params, setParams, idCode, signedIn]);

  useEffect(() => {
    if (!session) return;
    let live = true;
    void selfCall(selfProfiles).then((env) => {
      if (!live) return;
      if (env.code === CODE.ok && env.data) setMe(env.data);
      else lost(env.code, env.msg);
    });
    return () => {
      live = false;
    };
  }, [session, lost]);

  const signOut = async () => {
    await selfCall(selfLogout);
    memberSession.clear();
    setMe(null);
    setSession(null);
    setNotice('');
  };

  if (!session) return <SignInCard idCode={idCode} notice={notice} onSignedIn={signedIn} />;

  return (
    <Flex vertical gap={token.marginMD}>
      <Flex align="center" justify="space-between" gap={token.margin} wrap>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4 }}>
            {SM.selfTitle}
          </Typography.Title>
          {me && <Typography.Text type="secondary">{me.login}</Typography.Text>}
        </div>
        <Button icon={<LogoutOutlined />} onClick={() => void signOut()}>
          {SM.selfSignOut}
        </Button>
      </Flex>
      {!me ? (
        <Card variant="borderless">
          <Skeleton active paragraph={{ rows: 4 }} />
        </Card>
      ) : (
        <>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {SM.selfNetworks}
          </Typography.Title>
          {me.networks.length === 0 ? (
            <Card variant="borderless">
              <Empty description={SM.selfNoNetwork} />
            </Card>
          ) : (
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))', gap: token.margin }}>
              {me.networks.map((n) => (
                <NetworkCard key={n.network_number} network={n} routerName={me.router_name} onRefused={lost} />
              ))}
            </div>
          )}
          <HowTo me={me} />
        </>
      )}
    </Flex>
  );
}
