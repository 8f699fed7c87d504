import { fmt, M } from '@hublink/contract';
import { z } from 'zod';
import { answerOf, providerCall, providerText } from './http';
import { ProviderRefusal, type Provider } from './types';

/*
 * Enterprise WeChat (企业微信), an internal app of the tenant's corp: app_id is the corp id, agent_id the
 * app's AgentId. The member signs in on the web sign-in page (wwlogin/sso/login, QR code or the desktop
 * app); the server then takes an access token with the corp id and the app's secret (cgi-bin/gettoken),
 * the user's id from the code (cgi-bin/auth/getuserinfo) and the user's name (cgi-bin/user/get).
 */

const NAME = M.authSourceTypeWechat;
/** The API answers HTTP 200 with errcode; 0 is success. */
const result = z.object({ errcode: z.number(), errmsg: z.string().optional() });
/** An invalid code (wrong, used, or older than five minutes). */
const INVALID_CODE = 40029;

const refused = (errcode: number, what: string) =>
  new ProviderRefusal(fmt(M.authSourceProviderRefused, { provider: NAME, detail: `errcode ${errcode}` }), `${what}: errcode ${errcode}`);

export const wecom: Provider = {
  authorizeUrl(urls, app, redirectUri, state) {
    const q = new URLSearchParams({ login_type: 'CorpApp', appid: app.app_id, agentid: app.agent_id, redirect_uri: redirectUri, state });
    return `${urls.wecomLogin}/wwlogin/sso/login?${q}`;
  },

  async identify({ urls, proxy }, app, code) {
    const token = answerOf(
      NAME,
      'gettoken',
      result.extend({ access_token: z.string().max(1024).optional() }),
      await providerCall(NAME, proxy, { url: `${urls.wecomApi}/cgi-bin/gettoken?${new URLSearchParams({ corpid: app.app_id, corpsecret: app.app_secret })}` }),
    );
    // 40013 corp id, 40001 secret, 60020 an address not among the corp's trusted IPs: the source's configuration.
    if (token.errcode !== 0 || !token.access_token) throw new ProviderRefusal(fmt(M.authSourceProviderConfig, { provider: NAME }), `gettoken: errcode ${token.errcode}`);
    const access_token = token.access_token;

    const user = answerOf(
      NAME,
      'auth/getuserinfo',
      result.extend({ userid: providerText(64).optional(), openid: providerText(128).optional() }),
      await providerCall(NAME, proxy, { url: `${urls.wecomApi}/cgi-bin/auth/getuserinfo?${new URLSearchParams({ access_token, code })}` }),
    );
    if (user.errcode === INVALID_CODE) throw new ProviderRefusal(M.authSourceCodeInvalid, `auth/getuserinfo: errcode ${user.errcode}`);
    if (user.errcode !== 0) throw refused(user.errcode, 'auth/getuserinfo');
    // Someone outside the corp (a WeChat user) gets an openid and no userid.
    if (!user.userid) throw new ProviderRefusal(M.authSourceNotMember, 'auth/getuserinfo: no userid (not a member of the corp)');

    // The name needs the app to see the member in its visible range; without it the member is named by id.
    const detail = answerOf(
      NAME,
      'user/get',
      result.extend({ name: providerText(256).optional() }),
      await providerCall(NAME, proxy, { url: `${urls.wecomApi}/cgi-bin/user/get?${new URLSearchParams({ access_token, userid: user.userid })}` }),
    );
    const displayName = detail.errcode === 0 ? (detail.name ?? '') : '';
    return { namespace: app.app_id, userId: user.userid, nameBase: user.userid, displayName };
  },
};
