import { fmt, M } from '@hublink/contract';
import { z } from 'zod';
import { answerOf, providerCall, providerText, type ProviderAnswer } from './http';
import { ProviderRefusal, type Provider } from './types';

/*
 * DingTalk (钉钉), an internal app of the tenant's organisation: app_id is its Client ID (AppKey),
 * corp_id the organisation. The member signs in on login.dingtalk.com/oauth2/auth (limited to the
 * organisation); the server exchanges the code for a user access token (v1.0/oauth2/userAccessToken,
 * which names the organisation the user chose: it must be corp_id) and reads the user
 * (v1.0/contact/users/me).
 */

const NAME = M.authSourceTypeDingtalk;
/** A refusal: a 4xx with the error's code (a word, not a number) and message. */
const failure = z.object({ code: z.string().max(128), message: z.string().optional() });

/** Says what a refused call means: the app's credentials, the code, or something else. */
function refusal(what: string, answer: ProviderAnswer): ProviderRefusal {
  const code = failure.safeParse(answer.body).data?.code ?? `HTTP ${answer.status}`;
  const detail = `${what}: HTTP ${answer.status} ${code}`;
  if (/secret|client|appkey/i.test(code)) return new ProviderRefusal(fmt(M.authSourceProviderConfig, { provider: NAME }), detail);
  if (/code/i.test(code)) return new ProviderRefusal(M.authSourceCodeInvalid, detail);
  return new ProviderRefusal(fmt(M.authSourceProviderRefused, { provider: NAME, detail: code }), detail);
}

export const dingtalk: Provider = {
  authorizeUrl(urls, app, redirectUri, state) {
    const q = new URLSearchParams({
      redirect_uri: redirectUri,
      response_type: 'code',
      client_id: app.app_id,
      scope: 'openid corpid',
      state,
      prompt: 'consent',
      corpId: app.corp_id,
    });
    return `${urls.dingtalkLogin}/oauth2/auth?${q}`;
  },

  async identify({ urls, proxy }, app, code) {
    const tokenAnswer = await providerCall(NAME, proxy, {
      url: `${urls.dingtalkApi}/v1.0/oauth2/userAccessToken`,
      method: 'POST',
      json: { clientId: app.app_id, clientSecret: app.app_secret, code, grantType: 'authorization_code' },
    });
    if (tokenAnswer.status !== 200) throw refusal('oauth2/userAccessToken', tokenAnswer);
    const token = answerOf(NAME, 'oauth2/userAccessToken', z.object({ accessToken: z.string().max(2048), corpId: providerText(128).optional() }), tokenAnswer);
    if (token.corpId !== app.corp_id) throw new ProviderRefusal(M.authSourceCorpMismatch, `oauth2/userAccessToken: the user chose corp ${token.corpId ?? '(none)'}`);

    const meAnswer = await providerCall(NAME, proxy, { url: `${urls.dingtalkApi}/v1.0/contact/users/me`, headers: { 'x-acs-dingtalk-access-token': token.accessToken } });
    if (meAnswer.status !== 200) throw refusal('contact/users/me', meAnswer);
    const me = answerOf(NAME, 'contact/users/me', z.object({ nick: providerText(256).optional(), unionId: providerText(128), openId: providerText(128).optional() }), meAnswer);
    return { namespace: app.corp_id, userId: me.unionId, nameBase: me.unionId, displayName: me.nick ?? '' };
  },
};
