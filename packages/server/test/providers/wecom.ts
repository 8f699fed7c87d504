import { back, errorPage, Grants, issue, serve, type LocalServer, type ProviderReply, type ProviderRequest } from './server';

/*
 * A local enterprise WeChat (企业微信) speaking its documented API on its real paths:
 * - GET /wwlogin/sso/login?login_type=CorpApp&appid&agentid&redirect_uri&state: the web sign-in page.
 *   A wrong app, an agent the corp lacks, or a redirect_uri outside the app's trusted domain shows an
 *   error page; otherwise the signed-in user (signIn()) is sent back with code and state.
 * - GET /cgi-bin/gettoken?corpid&corpsecret: errcode 40013 (invalid corpid), 40001 (invalid
 *   credential: the secret), 60020 (a caller outside the trusted IPs), else access_token.
 * - GET /cgi-bin/auth/getuserinfo?access_token&code: 40014 (invalid access_token), 40029 (invalid code:
 *   wrong, used, another app's, older than five minutes), else userid (a member) or openid (an outsider).
 * - GET /cgi-bin/user/get?access_token&userid: 40014, 60111 (userid not found), else the member.
 * Every answer is HTTP 200 with errcode and errmsg, as the real API's.
 */

export interface WecomApp {
  corpId: string;
  agentId: string;
  secret: string;
  /** The app's trusted domain (the host the sign-in may return to). */
  trustedDomain: string;
  /** Addresses that may call the API; unset: any. */
  trustedIps?: string[];
}

/** Who is at the browser: a member of a corp, or a WeChat user outside it. */
export type WecomUser = { corpId: string; userid: string; name: string } | { openid: string };

export interface LocalWecom extends LocalServer {
  apps: WecomApp[];
  /** The person who signs in at the next sign-in page. */
  signIn(user: WecomUser): void;
  grants: Grants<WecomUser>;
  /** The code of the last sign-in page. */
  lastCode(): string;
}

const answer = (errcode: number, errmsg: string, extra: object = {}): ProviderReply => ({ json: { errcode, errmsg, ...extra } });

export async function startWecom(apps: WecomApp[] = []): Promise<LocalWecom> {
  const grants = new Grants<WecomUser>();
  const tokens = new Map<string, WecomApp>();
  /** Members seen signing in, by userid. */
  const directory = new Map<string, { corpId: string; userid: string; name: string }>();
  let browser: WecomUser | undefined;
  let last = '';

  const appOf = (corpId: string | null, agentId?: string | null) => apps.find((a) => a.corpId === corpId && (agentId === undefined || a.agentId === agentId));
  const tokenApp = (req: ProviderRequest) => tokens.get(req.query.get('access_token') ?? '');

  const server = await serve({
    'GET /wwlogin/sso/login': (req) => {
      const app = appOf(req.query.get('appid'), req.query.get('agentid'));
      if (req.query.get('login_type') !== 'CorpApp' || !app) return errorPage('参数错误：appid 或 agentid 无效');
      let redirect: URL;
      try {
        redirect = new URL(req.query.get('redirect_uri') ?? '');
      } catch {
        return errorPage('redirect_uri 参数错误');
      }
      if (redirect.host !== app.trustedDomain) return errorPage('redirect_uri 与配置的授权完成回跳域名不一致');
      const state = req.query.get('state') ?? '';
      if (!/^[a-zA-Z0-9]{0,128}$/.test(state)) return errorPage('state 参数错误');
      if (!browser) return errorPage('请扫码登录');
      last = grants.issue(`${app.corpId}/${app.agentId}`, browser);
      return back(redirect.toString(), { code: last, state, appid: app.corpId });
    },
    'GET /cgi-bin/gettoken': (req) => {
      const corp = apps.filter((a) => a.corpId === req.query.get('corpid'));
      if (corp.length === 0) return answer(40013, 'invalid corpid');
      const app = corp.find((a) => a.secret === req.query.get('corpsecret'));
      if (!app) return answer(40001, 'invalid credential');
      const ip = req.remoteAddress.replace(/^::ffff:/, '');
      if (app.trustedIps && !app.trustedIps.includes(ip)) return answer(60020, `not allow to access from your ip, from ip: ${ip}`);
      const token = issue();
      tokens.set(token, app);
      return answer(0, 'ok', { access_token: token, expires_in: 7200 });
    },
    'GET /cgi-bin/auth/getuserinfo': (req) => {
      const app = tokenApp(req);
      if (!app) return answer(40014, 'invalid access_token');
      const grant = grants.redeem(req.query.get('code') ?? '', `${app.corpId}/${app.agentId}`);
      if (typeof grant === 'string') return answer(40029, 'invalid code');
      const user = grant.user;
      if ('openid' in user) return answer(0, 'ok', { openid: user.openid, external_userid: `wm${user.openid}` });
      if (user.corpId !== app.corpId) return answer(40029, 'invalid code');
      directory.set(user.userid, user);
      return answer(0, 'ok', { userid: user.userid, user_ticket: issue() });
    },
    'GET /cgi-bin/user/get': (req) => {
      const app = tokenApp(req);
      if (!app) return answer(40014, 'invalid access_token');
      const user = directory.get(req.query.get('userid') ?? '');
      if (!user || user.corpId !== app.corpId) return answer(60111, 'userid not found');
      return answer(0, 'ok', { userid: user.userid, name: user.name, department: [1], status: 1 });
    },
  });

  return Object.assign(server, {
    apps,
    grants,
    signIn: (user: WecomUser) => {
      browser = user;
    },
    lastCode: () => last,
  });
}
