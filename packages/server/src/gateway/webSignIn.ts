import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_BASE_PATH, LIMITS, vpnWebSignIn, CM } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { onWebSignIn, webSignInOpenKey, webSignInTokenKey, type WebSignIn, type WebSignInOutcome, type WebSignInProof } from '../domain/webSignIn';
import { deviceApproval } from './approval';
import { ACCEPT, deny, logClientRefusal, standardClientDevice, type ClientVerdict } from './clientAuth';
import { publishDelivery } from './deliveries';

/*
 * The gateway's side of a standard client's web sign-in (OpenVPN's WEB_AUTH, issue 30; the shared
 * record is core/webSignIn.ts). A member of a WeCom, Feishu or DingTalk source has no password: its
 * center is answered 'pending' with a URL on the platform, the person signs in at their provider in a
 * browser, and the final answer goes to the session that asked (on whichever instance holds it) through
 * a delivery. The instance that opened the sign-in refuses it when the time is up; the store decides
 * which of the two answers, so exactly one final answer is given.
 */

/** Extra time the open mark lives in the store beyond the sign-in's own, so the sweep always finds it. */
const OPEN_GRACE_SECONDS = 30;
/** How often the sign-ins this instance opened are checked for their time being up. */
const SWEEP_MS = 1_000;

/** The sign-ins this instance opened and has not seen end, per app (by their open key), and the sweep. */
const opened = new WeakMap<Ctx, { pending: Map<string, WebSignIn>; sweep: NodeJS.Timeout }>();

/**
 * Where a client opens its sign-in: HUBLINK_PUBLIC_URL, else the origin the center reached the platform
 * at (its scheme and Host, or a trusted proxy's forwarded ones); '' when the request names none.
 */
export function deviceOrigin(ctx: Ctx, req: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl;
  try {
    // A WebSocket came as ws(s): the page is http(s) at the same address.
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return '';
  }
}

/**
 * Opens a web sign-in for a center's question: the pending answer with the URL the client opens, a
 * token of 256 random bits of which only the hash is kept, for LIMITS.vpnWebSignInSeconds.
 */
export async function openWebSignIn(ctx: Ctx, r: Omit<WebSignIn, 'expires_at'>, origin: string, now = Date.now()): Promise<ClientVerdict> {
  const seconds = LIMITS.vpnWebSignInSeconds;
  const record: WebSignIn = { ...r, expires_at: now + seconds * 1000 };
  const token = randomBytes(32).toString('base64url');
  await ctx.store.set(webSignInOpenKey(record), '1', seconds + OPEN_GRACE_SECONDS);
  await ctx.store.set(webSignInTokenKey(token), JSON.stringify(record), seconds);
  opened.get(ctx)?.pending.set(webSignInOpenKey(record), record);
  return { verdict: 'pending', reason: '', client_reason: '', url: `${origin}${API_BASE_PATH}${vpnWebSignIn.path}?token=${token}`, timeout: seconds };
}

/**
 * Refuses the sign-ins this instance opened whose time is up at `now` and that nobody finished (the
 * finisher may have run on another instance: then the open mark is gone and nothing is done).
 */
export async function endOverdueWebSignIns(ctx: Ctx, now = Date.now()): Promise<void> {
  const state = opened.get(ctx);
  if (!state) return;
  for (const [key, r] of state.pending) {
    if (r.expires_at > now) continue;
    state.pending.delete(key);
    if ((await ctx.store.take(key)) === null) continue;
    await answer(ctx, r, deny('the web sign-in timed out', CM.clientWebSignInTimeout));
  }
}

/** The final answer, to the center's session that asked; a refusal is written to the member's connect log. */
async function answer(ctx: Ctx, r: WebSignIn, verdict: ClientVerdict) {
  if (verdict.verdict === 'deny') {
    await logClientRefusal(ctx, { id: r.member_id, tenant_id: r.tenant_id, router_name: r.router_name }, { orig: r.orig, client_version: r.client_version }, verdict.reason);
  }
  await publishDelivery(ctx, { kind: 'client_auth_result', member_id: r.center_id, session_id: r.session_id, id: r.request_id, verdict: verdict.verdict === 'accept' ? 'accept' : 'deny', reason: verdict.reason, client_reason: verdict.client_reason });
}

/** After the provider named the person: the certificate's own member, still enabled, on an approved device. */
async function decide(ctx: Ctx, r: WebSignIn, proof: WebSignInProof): Promise<ClientVerdict> {
  if ('refused' in proof) return deny(proof.refused.reason, proof.refused.client_reason);
  if (proof.member_id !== r.member_id) return deny('the web sign-in named another member', CM.clientWebSignInOtherPerson);
  const member = await ctx.db.selectFrom('member').select(['id', 'tenant_id', 'status']).where('id', '=', r.member_id).where('tenant_id', '=', r.tenant_id).executeTakeFirst();
  if (!member || member.status !== 1) return deny('member disabled', CM.clientDisabled);
  const approval = await deviceApproval(ctx, member, standardClientDevice(r));
  if (approval === 'waiting') return deny('the device waits for approval', CM.clientAwaitingApproval);
  if (approval === 'refused') return deny('the device was refused', CM.clientDeviceRefused);
  return ACCEPT;
}

async function finish(ctx: Ctx, r: WebSignIn, proof: WebSignInProof): Promise<WebSignInOutcome> {
  // Taken once: a sign-in finished twice, or after the time was up, changes nothing.
  if ((await ctx.store.take(webSignInOpenKey(r))) === null) return { accepted: false, message: CM.webSignInExpired };
  const verdict = await decide(ctx, r, proof).catch((err: unknown): ClientVerdict => {
    ctx.log.error({ err }, 'gateway: deciding a web sign-in failed');
    return deny('the platform could not decide', CM.clientWebSignInRefused);
  });
  await answer(ctx, r, verdict);
  return verdict.verdict === 'accept' ? { accepted: true, message: CM.webSignInDone } : { accepted: false, message: verdict.client_reason || CM.clientWebSignInRefused };
}

/** The gateway starts taking web sign-ins' final answers (the auth-source module calls them) and refusing overdue ones. */
export function startWebSignIns(ctx: Ctx): void {
  onWebSignIn(ctx, (r, proof) => finish(ctx, r, proof));
  let running = false;
  const sweep = setInterval(() => {
    if (running) return;
    running = true;
    endOverdueWebSignIns(ctx)
      .catch((err: unknown) => ctx.log.error({ err }, 'gateway: refusing overdue web sign-ins failed'))
      .finally(() => (running = false));
  }, SWEEP_MS);
  sweep.unref();
  opened.set(ctx, { pending: new Map(), sweep });
}

/** Stops the sweep (the centers' own timers refuse what is still waiting: they fail closed). */
export function stopWebSignIns(ctx: Ctx): void {
  const state = opened.get(ctx);
  if (state) clearInterval(state.sweep);
  opened.delete(ctx);
}
