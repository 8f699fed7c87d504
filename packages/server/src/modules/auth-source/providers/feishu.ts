import { fmt, M } from '@hublink/contract';
import { z } from 'zod';
import { answerOf, providerCall, providerText } from './http';
import { ProviderRefusal, type Provider } from './types';

/*
 * Feishu (飞书), a custom app of the tenant's Feishu organisation: app_id and app_secret. The member signs
 * in on authen/v1/authorize; the server takes an app access token (auth/v3/app_access_token/internal),
 * the user's access token for the code (authen/v1/oidc/access_token) and the user (authen/v1/user_info).
 */

const NAME = M.authSourceTypeFeishu;
/** Answers carry code (0 is success) and msg, with the HTTP status 200 or 4xx. */
const result = z.object({ code: z.number(), msg: z.string().optional() });
/** The code is not found (wrong or used), or it expired. */
const INVALID_CODE = [20003, 20004];
/** The app's credentials: app_id or app_secret wrong (20002), the app access token refused (20014). */
const BAD_APP = [20002, 20014];

const refused = (code: number, what: string) =>
  new ProviderRefusal(fmt(M.authSourceProviderRefused, { provider: NAME, detail: `code ${code}` }), `${what}: code ${code}`);

export const feishu: Provider = {
  authorizeUrl(urls, app, redirectUri, state) {
    return `${urls.feishu}/open-apis/authen/v1/authorize?${new URLSearchParams({ app_id: app.app_id, redirect_uri: redirectUri, state })}`;
  },

  async identify({ urls, proxy }, app, code) {
    const appToken = answerOf(
      NAME,
      'app_access_token',
      result.extend({ app_access_token: z.string().max(1024).optional() }),
      await providerCall(NAME, proxy, { url: `${urls.feishu}/open-apis/auth/v3/app_access_token/internal`, method: 'POST', json: { app_id: app.app_id, app_secret: app.app_secret } }),
    );
    if (appToken.code !== 0 || !appToken.app_access_token) throw new ProviderRefusal(fmt(M.authSourceProviderConfig, { provider: NAME }), `app_access_token: code ${appToken.code}`);

    const userToken = answerOf(
      NAME,
      'oidc/access_token',
      result.extend({ data: z.object({ access_token: z.string().max(2048) }).optional() }),
      await providerCall(NAME, proxy, {
        url: `${urls.feishu}/open-apis/authen/v1/oidc/access_token`,
        method: 'POST',
        headers: { authorization: `Bearer ${appToken.app_access_token}` },
        json: { grant_type: 'authorization_code', code },
      }),
    );
    if (INVALID_CODE.includes(userToken.code)) throw new ProviderRefusal(M.authSourceCodeInvalid, `oidc/access_token: code ${userToken.code}`);
    if (BAD_APP.includes(userToken.code)) throw new ProviderRefusal(fmt(M.authSourceProviderConfig, { provider: NAME }), `oidc/access_token: code ${userToken.code}`);
    if (userToken.code !== 0 || !userToken.data) throw refused(userToken.code, 'oidc/access_token');

    const user = answerOf(
      NAME,
      'user_info',
      result.extend({
        data: z
          .object({
            name: providerText(256).optional(),
            open_id: providerText(128),
            union_id: providerText(128),
            user_id: providerText(128).optional(),
            tenant_key: providerText(128),
          })
          .optional(),
      }),
      await providerCall(NAME, proxy, { url: `${urls.feishu}/open-apis/authen/v1/user_info`, headers: { authorization: `Bearer ${userToken.data.access_token}` } }),
    );
    if (user.code !== 0 || !user.data) throw refused(user.code, 'user_info');
    const { data } = user;
    // union_id is the same for every app of the organisation's developer; user_id (shown as the
    // person's id in the directory) only when the app may read it.
    return { namespace: data.tenant_key, userId: data.union_id, nameBase: data.user_id || data.open_id, displayName: data.name ?? '' };
  },
};
