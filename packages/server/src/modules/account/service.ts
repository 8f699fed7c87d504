import {
  CODE,
  M,
  phoneValue,
  type AccountData,
  type DefaultEmailBody,
  type DefaultPhoneBody,
  type EditDataBody,
  type SendType,
} from '@hublink/contract';
import type { Actor } from '../../core/actor';
import { destinationKey } from '../../core/codes';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { hashPassword } from '../../core/passwords';
import { formatTime } from '../../core/time';
import { proofKey, verifyCode } from '../auth/service';
import { ensureContactFree } from '../auth/users';

// The account owner's own data and credentials (spec 1 §2.8). Every route here is 'main' only.

type Proof = 'verify_phone' | 'verify_email';

const proofOf = (type: SendType): Proof => (type === 'phone' ? 'verify_phone' : 'verify_email');

async function hasProof(ctx: Ctx, tenantId: number, type: Proof): Promise<boolean> {
  return (await ctx.store.get(proofKey(tenantId, type))) !== null;
}

/** Uses up a proof; false when it is gone (expired, or used by a request that came first). */
async function takeProof(ctx: Ctx, tenantId: number, type: Proof): Promise<boolean> {
  return (await ctx.store.take(proofKey(tenantId, type))) !== null;
}

async function ownAccount(ctx: Ctx, actor: Actor) {
  return ctx.db.selectFrom('account').selectAll().where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
}

export async function data(ctx: Ctx, actor: Actor): Promise<AccountData> {
  const a = await ownAccount(ctx, actor);
  return {
    username: a.username,
    nickname: a.nickname,
    birthday: a.birthday ?? '',
    industry: a.industry ?? '',
    occupation: a.occupation ?? '',
    phone: a.phone ?? '',
    email: a.email ?? '',
    sign: a.sign,
    create_time: formatTime(Number(a.create_time), ctx.config.timezone),
  };
}

export async function editData(ctx: Ctx, actor: Actor, input: EditDataBody) {
  await ctx.db
    .updateTable('account')
    .set({ ...input, update_time: Date.now() })
    .where('id', '=', actor.tenantId)
    .execute();
}

/**
 * Writes the new phone or email. A unique index decides between two accounts racing for the same
 * address; the loser gets the same message as if it had been taken before.
 */
async function setContact(ctx: Ctx, actor: Actor, type: SendType, key: string | null) {
  try {
    await ctx.db
      .updateTable('account')
      .set({ [type]: key, update_time: Date.now() })
      .where('id', '=', actor.tenantId)
      .execute();
  } catch (e) {
    if (key) await ensureContactFree(ctx, actor.tenantId, type, key);
    throw e;
  }
}

/**
 * Step 2 of the password wizard: needs a bound phone or email and the proof of /verify/verify,
 * which it uses up. The other sessions of the account end; the one making the change goes on.
 */
export async function editPassword(ctx: Ctx, actor: Actor, password: string) {
  const a = await ownAccount(ctx, actor);
  if (!a.phone && !a.email) throw invalid(M.bindContactFirst);
  const proofs: Proof[] = [...(a.phone ? (['verify_phone'] as const) : []), ...(a.email ? (['verify_email'] as const) : [])];
  let proven = false;
  for (const p of proofs) if (!proven && (await takeProof(ctx, actor.tenantId, p))) proven = true;
  if (!proven) throw invalid(M.recoveryNotVerified);
  const now = Date.now();
  await ctx.db.updateTable('account').set({ password_hash: await hashPassword(password), update_time: now }).where('id', '=', actor.tenantId).execute();
  await ctx.db
    .updateTable('session')
    .set({ revoked_at: now })
    .where('tenant_id', '=', actor.tenantId)
    .where('ram_id', 'is', null)
    .where('id', '!=', actor.sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The proof (either channel) a change of phone or email needs; checked before anything is used up. */
async function anyProof(ctx: Ctx, actor: Actor): Promise<Proof | null> {
  for (const p of ['verify_phone', 'verify_email'] as const) if (await hasProof(ctx, actor.tenantId, p)) return p;
  return null;
}

/**
 * Step 2 of the email and phone wizards: the identity proof of step 1 plus a code sent to the new
 * address for this purpose (edit_email / edit_phone). Refusals that need no code come first, so a
 * mistyped address does not use up the code or the proof.
 */
async function changeContact(ctx: Ctx, actor: Actor, type: SendType, value: string, code: string) {
  const key = destinationKey(type, value);
  const a = await ownAccount(ctx, actor);
  const proof = await anyProof(ctx, actor);
  if (!proof) throw invalid(M.recoveryNotVerified);
  if (a[type] === key) throw invalid(type === 'phone' ? M.phoneSame : M.emailSame);
  await ensureContactFree(ctx, actor.tenantId, type, key);
  await ctx.codes.consume(type, key, type === 'phone' ? 'edit_phone' : 'edit_email', code);
  if (!(await takeProof(ctx, actor.tenantId, proof))) throw invalid(M.recoveryNotVerified);
  await setContact(ctx, actor, type, key);
}

export const editEmail = (ctx: Ctx, actor: Actor, email: string, code: string) => changeContact(ctx, actor, 'email', email, code);

export const editPhone = (ctx: Ctx, actor: Actor, area: string, phone: string, code: string) =>
  changeContact(ctx, actor, 'phone', phoneValue(area, phone), code);

const BIND_TEXT = {
  phone: { boundVerify: M.phoneBoundVerify, unbindVerify: M.phoneUnbindVerify, notBound: M.phoneNotBound, same: M.phoneSame },
  email: { boundVerify: M.emailBoundVerify, unbindVerify: M.emailUnbindVerify, notBound: M.emailNotBound, same: M.emailSame },
} as const;

/**
 * The binding dialogs (docs/decisions.md, "Binding dialogs"). Answers the message for the console:
 * - type 2: a verify_phone / verify_email code for the bound value; leaves the proof (as /verify/verify).
 * - type 1 with a value: binds it with its bind_phone / bind_email code; when one is bound already,
 *   401 until the old one is proven, and the proof is used up.
 * - type 1 with nothing: unbinds; 403 until the old one is proven; the last contact stays.
 */
async function bind(ctx: Ctx, actor: Actor, type: SendType, input: { type: number; value: string; code: string }): Promise<string> {
  const text = BIND_TEXT[type];
  const a = await ownAccount(ctx, actor);
  const current = a[type];
  const proof = proofOf(type);

  if (input.type === 2) {
    if (!current) throw invalid(text.notBound);
    await verifyCode(ctx, actor, { send_type: type, verify_type: proof, code: input.code });
    return M.bindVerified;
  }

  if (!input.value && !input.code) {
    if (!current) throw invalid(text.notBound);
    const other = type === 'phone' ? a.email : a.phone;
    if (!other) throw invalid(M.keepOneContact);
    if (!(await takeProof(ctx, actor.tenantId, proof))) throw new ApiError(CODE.flow403, text.unbindVerify);
    await setContact(ctx, actor, type, null);
    return M.unbound;
  }

  const key = destinationKey(type, input.value);
  if (current && !(await hasProof(ctx, actor.tenantId, proof))) throw new ApiError(CODE.flow401, text.boundVerify);
  if (current === key) throw invalid(text.same);
  await ensureContactFree(ctx, actor.tenantId, type, key);
  await ctx.codes.consume(type, key, type === 'phone' ? 'bind_phone' : 'bind_email', input.code);
  if (current && !(await takeProof(ctx, actor.tenantId, proof))) throw new ApiError(CODE.flow401, text.boundVerify);
  await setContact(ctx, actor, type, key);
  return M.bound;
}

export const bindPhone = (ctx: Ctx, actor: Actor, input: DefaultPhoneBody) =>
  bind(ctx, actor, 'phone', { type: input.type, value: input.phone ? phoneValue(input.area_code, input.phone) : '', code: input.code });

export const bindEmail = (ctx: Ctx, actor: Actor, input: DefaultEmailBody) =>
  bind(ctx, actor, 'email', { type: input.type, value: input.email, code: input.code });

/** The software member suffix: lowercase, unique across tenants; the same value again changes nothing. */
export async function editSign(ctx: Ctx, actor: Actor, sign: string) {
  const key = sign.toLowerCase();
  const a = await ownAccount(ctx, actor);
  if (a.sign === key) return;
  const taken = async () =>
    ctx.db.selectFrom('account').select('id').where('sign', '=', key).where('id', '!=', actor.tenantId).executeTakeFirst();
  if (await taken()) throw invalid(M.signTaken);
  try {
    await ctx.db.updateTable('account').set({ sign: key, update_time: Date.now() }).where('id', '=', actor.tenantId).execute();
  } catch (e) {
    if (await taken()) throw invalid(M.signTaken);
    throw e;
  }
}
