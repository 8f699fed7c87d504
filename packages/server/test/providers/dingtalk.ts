import { back, errorPage, Grants, issue, serve, type LocalServer, type ProviderReply } from './server';

/*
 * A local DingTalk (钉钉) speaking its documented API on its real paths:
 * - GET /oauth2/auth?redirect_uri&response_type=code&client_id&scope&state&prompt: the sign-in page; an
 *   unknown client, another response_type or a redirect_uri outside the app's redirect URLs shows an
 *   error page, otherwise the signed-in user is sent back with authCode (and code) and state.
 * - POST /v1.0/oauth2/userAccessToken {clientId, clientSecret, code, grantType}: HTTP 400 with an error
 *   code word (invalidClientIdOrSecret, invalidAuthCode) and message; else accessToken and, when the
 *   sign-in asked for the corpid scope, the corpId of the organisation the user signed in to.
 * - GET /v1.0/contact/users/me (x-acs-dingtalk-access-token): HTTP 401 InvalidAuthentication, else the
 *   user's nick, unionId, openId.
 */

export interface DingtalkApp {
  clientId: string;
  secret: string;
  /** The app's redirect URLs. */
  redirectUrls: string[];
}

export interface DingtalkUser {
  /** The organisation the user signs in to. */
  corpId: string;
  unionId: string;
  openId: string;
  nick: string;
}

export interface LocalDingtalk extends LocalServer {
  apps: DingtalkApp[];
  signIn(user: DingtalkUser): void;
  grants: Grants<DingtalkUser & { corpScope: boolean }>;
  lastCode(): string;
}

const refuse = (status: number, code: string, message: string): ProviderReply => ({ status, json: { requestid: issue(), code, message } });

export async function startDingtalk(apps: DingtalkApp[] = []): Promise<LocalDingtalk> {
  const grants = new Grants<DingtalkUser & { corpScope: boolean }>();
  const tokens = new Map<string, DingtalkUser>();
  let browser: DingtalkUser | undefined;
  let last = '';

  const server = await serve({
    'GET /oauth2/auth': (req) => {
      const app = apps.find((a) => a.clientId === req.query.get('client_id'));
      if (!app || req.query.get('response_type') !== 'code') return errorPage('参数错误：client_id 或 response_type 无效');
      const redirect = req.query.get('redirect_uri') ?? '';
      if (!app.redirectUrls.includes(redirect)) return errorPage('redirect_uri 与应用配置的回调地址不一致');
      if (!browser) return errorPage('请登录钉钉');
      const scopes = (req.query.get('scope') ?? '').split(/\s+/);
      last = grants.issue(app.clientId, { ...browser, corpScope: scopes.includes('corpid') });
      return back(redirect, { authCode: last, code: last, state: req.query.get('state') ?? '' });
    },
    'POST /v1.0/oauth2/userAccessToken': (req) => {
      const body = (req.body ?? {}) as { clientId?: unknown; clientSecret?: unknown; code?: unknown; grantType?: unknown };
      const app = apps.find((a) => a.clientId === body.clientId);
      if (!app || app.secret !== body.clientSecret) return refuse(400, 'invalidClientIdOrSecret', '无效的clientId或者clientSecret');
      if (body.grantType !== 'authorization_code') return refuse(400, 'invalidParameter.grantType', 'grantType参数错误');
      const grant = grants.redeem(String(body.code ?? ''), app.clientId);
      if (typeof grant === 'string') return refuse(400, 'invalidAuthCode', '不合法的临时授权码');
      const { corpScope, ...user } = grant.user;
      const token = issue();
      tokens.set(token, user);
      return { json: { accessToken: token, refreshToken: issue(), expireIn: 7200, ...(corpScope ? { corpId: user.corpId } : {}) } };
    },
    'GET /v1.0/contact/users/me': (req) => {
      const user = tokens.get(String(req.headers['x-acs-dingtalk-access-token'] ?? ''));
      if (!user) return refuse(401, 'InvalidAuthentication', '不合法的access_token');
      return { json: { nick: user.nick, avatarUrl: '', mobile: '', openId: user.openId, unionId: user.unionId, email: '', stateCode: '86' } };
    },
  });

  return Object.assign(server, {
    apps,
    grants,
    signIn: (user: DingtalkUser) => {
      browser = user;
    },
    lastCode: () => last,
  });
}
