import { back, errorPage, Grants, issue, serve, type LocalServer, type ProviderReply, type ProviderRequest } from './server';

/*
 * A local Feishu (飞书) open platform speaking its documented API on its real paths:
 * - GET /open-apis/authen/v1/authorize?app_id&redirect_uri&state: the sign-in page; an unknown app or
 *   a redirect_uri not among the app's redirect URLs shows an error page (20029), otherwise the signed-in
 *   user is sent back with code and state.
 * - POST /open-apis/auth/v3/app_access_token/internal {app_id, app_secret}: code 10003 (invalid app_id),
 *   10014 (app secret invalid), else app_access_token.
 * - POST /open-apis/authen/v1/oidc/access_token (Bearer app_access_token) {grant_type, code}: HTTP 400
 *   with code 20014 (app access token invalid), 20001 (grant_type), 20003 (code not found: wrong, used,
 *   another app's), 20004 (code expired); else data.access_token.
 * - GET /open-apis/authen/v1/user_info (Bearer user_access_token): HTTP 400 code 20005 (invalid user
 *   access token), else data with name, open_id, union_id, user_id, tenant_key.
 */

export interface FeishuApp {
  appId: string;
  secret: string;
  /** The app's redirect URLs (security settings). */
  redirectUrls: string[];
}

export interface FeishuUser {
  tenantKey: string;
  unionId: string;
  openId: string;
  /** Present when the app may read user ids. */
  userId?: string;
  name: string;
}

export interface LocalFeishu extends LocalServer {
  apps: FeishuApp[];
  signIn(user: FeishuUser): void;
  grants: Grants<FeishuUser>;
  lastCode(): string;
}

const ok = (extra: object): ProviderReply => ({ json: { code: 0, msg: 'success', ...extra } });
const refuse = (code: number, msg: string, status = 400): ProviderReply => ({ status, json: { code, msg } });
const bearer = (req: ProviderRequest) => /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';

export async function startFeishu(apps: FeishuApp[] = []): Promise<LocalFeishu> {
  const grants = new Grants<FeishuUser>();
  const appTokens = new Map<string, FeishuApp>();
  const userTokens = new Map<string, FeishuUser>();
  let browser: FeishuUser | undefined;
  let last = '';

  const server = await serve({
    'GET /open-apis/authen/v1/authorize': (req) => {
      const app = apps.find((a) => a.appId === req.query.get('app_id'));
      if (!app) return errorPage('20029: app_id 无效');
      const redirect = req.query.get('redirect_uri') ?? '';
      if (!app.redirectUrls.includes(redirect)) return errorPage('20029: redirect_uri 请求不合法');
      if (!browser) return errorPage('请登录飞书');
      last = grants.issue(app.appId, browser);
      return back(redirect, { code: last, state: req.query.get('state') ?? '' });
    },
    'POST /open-apis/auth/v3/app_access_token/internal': (req) => {
      const body = (req.body ?? {}) as { app_id?: unknown; app_secret?: unknown };
      const app = apps.find((a) => a.appId === body.app_id);
      if (!app) return refuse(10003, 'invalid param', 200);
      if (app.secret !== body.app_secret) return refuse(10014, 'app secret invalid', 200);
      const token = issue('a-');
      appTokens.set(token, app);
      return { json: { code: 0, msg: 'ok', app_access_token: token, expire: 7200, tenant_access_token: issue('t-') } };
    },
    'POST /open-apis/authen/v1/oidc/access_token': (req) => {
      const app = appTokens.get(bearer(req));
      if (!app) return refuse(20014, 'The app access token passed is invalid. Please check the value.');
      const body = (req.body ?? {}) as { grant_type?: unknown; code?: unknown };
      if (body.grant_type !== 'authorization_code') return refuse(20001, 'Invalid request. Please check request param.');
      const grant = grants.redeem(String(body.code ?? ''), app.appId);
      if (grant === 'unknown') return refuse(20003, 'The authorization code is not found. Please note that an authorization code can only be used once.');
      if (grant === 'expired') return refuse(20004, 'The authorization code has expired.');
      const token = issue('u-');
      userTokens.set(token, grant.user);
      return ok({ data: { access_token: token, token_type: 'Bearer', expires_in: 6900, refresh_token: issue('ur-'), refresh_expires_in: 2591700, scope: '' } });
    },
    'GET /open-apis/authen/v1/user_info': (req) => {
      const user = userTokens.get(bearer(req));
      if (!user) return refuse(20005, 'The user access token passed is invalid.');
      return ok({
        data: {
          name: user.name,
          en_name: '',
          avatar_url: '',
          open_id: user.openId,
          union_id: user.unionId,
          tenant_key: user.tenantKey,
          ...(user.userId ? { user_id: user.userId } : {}),
        },
      });
    },
  });

  return Object.assign(server, {
    apps,
    grants,
    signIn: (user: FeishuUser) => {
      browser = user;
    },
    lastCode: () => last,
  });
}
