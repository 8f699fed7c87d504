import { createHash } from 'node:crypto';
import { AUTH_SOURCE_TYPES } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../core/context';

/*
 * A standard OpenVPN client's web sign-in (OpenVPN's WEB_AUTH, issue 30) crosses two areas that do not
 * import each other: the gateway holds the center's question (client_auth, answered 'pending' with a
 * URL) and gives the final answer; the auth-source module takes the person through their provider. They
 * share what is here: the record of a pending sign-in, kept in the store under the hash of the URL's
 * token (one use), and the gateway's finisher, which the gateway registers when it starts and the
 * auth-source module calls once the provider has named the person (or refused).
 */

/** A member of a WeCom, Feishu or DingTalk source that has no password signs in on the web. */
export function signsInOnWeb(member: { source: string; secret_hash: string }): boolean {
  return (AUTH_SOURCE_TYPES as readonly string[]).includes(member.source) && !member.secret_hash.startsWith('scrypt$');
}

/** A client's pending connection: the center's question, and who the certificate names. */
export const webSignIn = z.object({
  tenant_id: z.number().int(),
  member_id: z.number().int(),
  router_name: z.string(),
  network_id: z.number().int(),
  /** The center's member id, its gateway session and its id for the question. */
  center_id: z.number().int(),
  session_id: z.string(),
  request_id: z.string(),
  orig: z.string(),
  platform: z.string(),
  hwaddr: z.string(),
  client_version: z.string(),
  /** When the center stops waiting (ms). */
  expires_at: z.number(),
});
export type WebSignIn = z.infer<typeof webSignIn>;

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
/** The URL's token names the record; only its hash is a key. */
export const webSignInTokenKey = (token: string) => `web-sign-in:token:${sha256(token)}`;
/**
 * Present while the question waits for its final answer: whoever takes it (the finisher, or the
 * gateway's timer when the time is up) gives that answer, so exactly one is given.
 */
export const webSignInOpenKey = (r: Pick<WebSignIn, 'session_id' | 'request_id'>) => `web-sign-in:open:${sha256(`${r.session_id}\n${r.request_id}`)}`;

/** What the provider said of the person: the member it is bound to, or why the sign-in failed. */
export type WebSignInProof = { member_id: number } | { refused: { reason: string; client_reason: string } };
/** What the person's browser is told. */
export interface WebSignInOutcome {
  accepted: boolean;
  message: string;
}
export type WebSignInFinisher = (r: WebSignIn, proof: WebSignInProof) => Promise<WebSignInOutcome>;

const finishers = new WeakMap<Ctx, WebSignInFinisher>();

/** The gateway's side (gateway/webSignIn.ts), set when it starts. */
export function onWebSignIn(ctx: Ctx, finisher: WebSignInFinisher): void {
  finishers.set(ctx, finisher);
}

/** Gives a pending connection its final answer (the gateway decides and delivers it). */
export function finishWebSignIn(ctx: Ctx, r: WebSignIn, proof: WebSignInProof): Promise<WebSignInOutcome> {
  const finisher = finishers.get(ctx);
  if (!finisher) throw new Error('the gateway is not running: no web sign-in can finish');
  return finisher(r, proof);
}
