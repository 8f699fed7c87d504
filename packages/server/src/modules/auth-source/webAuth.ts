import { createHash, randomBytes } from 'node:crypto';
import { M, WEB_SIGN_IN_PAGE_TYPE, type authSourceCallback, CM } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import { ApiError, forbidden } from '../../core/errors';
import { FileAnswer, RedirectAnswer } from '../../core/http';
import { finishWebSignIn, webSignIn, webSignInTokenKey, type WebSignIn, type WebSignInProof } from '../../domain/webSignIn';
import { enabledSource, LOGIN_LIMITS } from './login';
import { externalKeyOf } from './members';
import { callbackUrlOf } from './origin';
import { PROVIDERS, ProviderRefusal } from './providers';
import { appOf, ensureFeature } from './sources';

/*
 * A standard OpenVPN client's web sign-in (OpenVPN's WEB_AUTH, issue 30), the browser's part; the
 * gateway's part is gateway/webSignIn.ts, the record they share core/webSignIn.ts.
 *   1. GET /auth_source/vpn?token=…   the URL the client opened (the token serves once): 302 to the
 *      provider of the source the certificate's member is bound to, with a state of our own;
 *   2. GET /auth_source/callback      the provider sent the browser back (the state says it is a VPN
 *      sign-in): the person it names must be the certificate's member, bound through that source. The
 *      gateway gives the client its final answer, and the browser is shown a small page saying so.
 * Nothing here changes a member: a person the source never signed in is refused, not created.
 */

type CallbackQuery = z.output<typeof authSourceCallback.query>;

/** A web sign-in between the client's URL and the provider's callback. */
const vpnState = webSignIn.extend({ source_id: z.number().int() });

const vpnStateKey = (state: string) => `auth-source:vpn-state:${createHash('sha256').update(state).digest('hex')}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the person's browser ends on: what happened, in the person's words. */
function page(message: string): FileAnswer {
  const html = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(CM.webSignInTitle)}</title></head>
<body><p>${escapeHtml(message)}</p></body></html>
`;
  return new FileAnswer('sign-in.html', WEB_SIGN_IN_PAGE_TYPE, Buffer.from(html), { disposition: 'inline' });
}

/** A refusal the person can act on (the platform's own answers and the provider's), else undefined. */
function refusalOf(ctx: Ctx, r: WebSignIn, e: unknown): WebSignInProof | undefined {
  if (e instanceof ProviderRefusal) {
    ctx.log.info({ tenantId: r.tenant_id, memberId: r.member_id, detail: e.detail }, 'auth source: web sign-in refused');
    return { refused: { reason: `the provider refused the sign-in: ${e.detail}`, client_reason: e.message } };
  }
  if (e instanceof ApiError) return { refused: { reason: `the sign-in source refused: ${e.message}`, client_reason: e.message } };
  return undefined;
}

/** Ends a sign-in that cannot go on, telling the client and the browser why. */
async function refuse(ctx: Ctx, r: WebSignIn, e: unknown): Promise<FileAnswer> {
  const known = refusalOf(ctx, r, e);
  const outcome = await finishWebSignIn(ctx, r, known ?? { refused: { reason: 'the platform could not go on with the web sign-in', client_reason: CM.clientWebSignInRefused } });
  // Anything else is a fault: the client is refused above, the request answers 500 and is logged.
  if (!known) throw e;
  return page(outcome.message);
}

/** Step 1: the client's URL, to the provider of the member's source; an unknown or used token gets a page. */
export async function startVpnSignIn(ctx: Ctx, ip: string, origin: string, token: string, now = Date.now()): Promise<RedirectAnswer | FileAnswer> {
  await ctx.limiter.hit(LOGIN_LIMITS.perIp, ip);
  const raw = await ctx.store.take(webSignInTokenKey(token));
  if (raw === null) return page(CM.webSignInExpired);
  const r = webSignIn.parse(JSON.parse(raw));
  const seconds = Math.ceil((r.expires_at - now) / 1000);
  if (seconds <= 0) return page(CM.webSignInExpired);
  try {
    await ensureFeature(ctx.db, r.tenant_id);
    const binding = await ctx.db
      .selectFrom('auth_source_member')
      .select('source_id')
      .where('tenant_id', '=', r.tenant_id)
      .where('member_id', '=', r.member_id)
      .orderBy('id')
      .executeTakeFirst();
    if (!binding) throw forbidden(M.authSourceMemberGone);
    const source = await enabledSource(ctx, r.tenant_id, binding.source_id);
    // As authorize's: 256 random bits as hex, within enterprise WeChat's 128 characters of [a-zA-Z0-9].
    const state = randomBytes(32).toString('hex');
    await ctx.store.set(vpnStateKey(state), JSON.stringify({ ...r, source_id: source.id } satisfies z.input<typeof vpnState>), seconds);
    const app = appOf(ctx, source);
    return new RedirectAnswer(PROVIDERS[app.type].authorizeUrl(ctx.config.authProviders, app, callbackUrlOf(origin), state));
  } catch (e) {
    return refuse(ctx, r, e);
  }
}

/**
 * Step 2, when the callback's state is a web sign-in's (else undefined: a client's or a page's sign-in,
 * login.ts): the provider names the person, who must be bound through the source to the certificate's
 * member; the gateway decides the rest (enabled, device approval) and answers the center.
 */
export async function vpnCallback(ctx: Ctx, ip: string, q: CallbackQuery): Promise<FileAnswer | undefined> {
  const raw = await ctx.store.take(vpnStateKey(q.state));
  if (raw === null) return undefined;
  await ctx.limiter.hit(LOGIN_LIMITS.perIp, ip);
  const { source_id, ...r } = vpnState.parse(JSON.parse(raw));
  let proof: WebSignInProof;
  try {
    if (q.error) throw new ProviderRefusal(M.authSourceLoginCancelled, `the provider answered error=${q.error}`);
    const code = q.authCode ?? q.code;
    if (!code) throw new ProviderRefusal(M.authSourceCodeInvalid, 'no code in the callback');
    await ensureFeature(ctx.db, r.tenant_id);
    const source = await enabledSource(ctx, r.tenant_id, source_id);
    const app = appOf(ctx, source);
    const identity = await PROVIDERS[app.type].identify({ urls: ctx.config.authProviders, proxy: ctx.config.outboundProxy }, app, code);
    const bound = await ctx.db
      .selectFrom('auth_source_member')
      .select('member_id')
      .where('tenant_id', '=', r.tenant_id)
      .where('source_id', '=', source.id)
      .where('external_key', '=', externalKeyOf(identity))
      .executeTakeFirst();
    proof = bound ? { member_id: bound.member_id } : { refused: { reason: 'the web sign-in named a person bound to no member', client_reason: CM.clientWebSignInOtherPerson } };
  } catch (e) {
    return refuse(ctx, r, e);
  }
  return page((await finishWebSignIn(ctx, r, proof)).message);
}
