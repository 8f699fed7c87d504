import {
  M,
  phoneValue,
  type AccountData,
  type DefaultEmailBody,
  type DefaultPhoneBody,
  type EditDataBody,
  type SendType,
} from '@hublink/contract';
import { changeAccount, ensureContactFree, setAccountPassword } from '../../domain/accounts';
import type { Actor } from '../../core/actor';
import { bindStep, type Binding } from '../../domain/binding';
import { destinationKey } from '../../core/codes';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { hasProof, proofKey, takeProof } from '../../domain/proofs';
import { formatTime } from '../../core/time';

// The account owner's own data and credentials (spec 1 §2.8). Every route here is 'main' only.

type Proof = 'verify_phone' | 'verify_email';

/** Where the identity proof of /verify/verify for one channel is kept. */
const proofOf = (tenantId: number, type: Proof) => proofKey(tenantId, type);

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
  await changeAccount(ctx.db, actor.tenantId, input);
}

/**
 * Writes the new phone or email. A unique index decides between two accounts racing for the same
 * address; the loser gets the same message as if it had been taken before.
 */
async function setContact(ctx: Ctx, actor: Actor, type: SendType, key: string | null) {
  try {
    await changeAccount(ctx.db, actor.tenantId, { [type]: key });
  } catch (e) {
    if (key) await ensureContactFree(ctx.db, actor.tenantId, type, key);
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
  for (const p of proofs) if (!proven && (await takeProof(ctx.store, proofOf(actor.tenantId, p)))) proven = true;
  if (!proven) throw invalid(M.recoveryNotVerified);
  await setAccountPassword(ctx.db, actor.tenantId, password, { except: actor.sessionId });
}

/** The proof (either channel) a change of phone or email needs; checked before anything is used up. */
async function anyProof(ctx: Ctx, actor: Actor): Promise<Proof | null> {
  for (const p of ['verify_phone', 'verify_email'] as const) if (await hasProof(ctx.store, proofOf(actor.tenantId, p))) return p;
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
  await ensureContactFree(ctx.db, actor.tenantId, type, key);
  await ctx.codes.consume(type, key, type === 'phone' ? 'edit_phone' : 'edit_email', code);
  if (!(await takeProof(ctx.store, proofOf(actor.tenantId, proof)))) throw invalid(M.recoveryNotVerified);
  await setContact(ctx, actor, type, key);
}

export const editEmail = (ctx: Ctx, actor: Actor, email: string, code: string) => changeContact(ctx, actor, 'email', email, code);

export const editPhone = (ctx: Ctx, actor: Actor, area: string, phone: string, code: string) =>
  changeContact(ctx, actor, 'phone', phoneValue(area, phone), code);

const BIND_TEXT = {
  phone: { verified: M.bindVerified, boundVerify: M.phoneBoundVerify, unbindVerify: M.phoneUnbindVerify, notBound: M.phoneNotBound, same: M.phoneSame },
  email: { verified: M.bindVerified, boundVerify: M.emailBoundVerify, unbindVerify: M.emailUnbindVerify, notBound: M.emailNotBound, same: M.emailSame },
} as const;

/**
 * The binding dialogs of the account's phone and email (core/binding.ts): type 2 proves the bound
 * value with its verify_phone / verify_email code, which leaves the identity proof of /verify/verify;
 * a new value needs its bind_phone / bind_email code; the last contact stays.
 */
async function bind(ctx: Ctx, actor: Actor, type: SendType, input: { type: number; value: string; code: string }): Promise<string> {
  const a = await ownAccount(ctx, actor);
  const proof = type === 'phone' ? 'verify_phone' : 'verify_email';
  const binding: Binding = {
    channel: type,
    current: a[type],
    proof: proofOf(actor.tenantId, proof),
    purposes: { verify: proof, bind: type === 'phone' ? 'bind_phone' : 'bind_email' },
    text: BIND_TEXT[type],
    ensureFree: (key) => ensureContactFree(ctx.db, actor.tenantId, type, key),
    ensureMayUnbind: () => {
      if (!(type === 'phone' ? a.email : a.phone)) throw invalid(M.keepOneContact);
    },
    write: (key) => setContact(ctx, actor, type, key),
  };
  return bindStep(ctx, binding, { ...input, value: input.value && destinationKey(type, input.value) });
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
    await changeAccount(ctx.db, actor.tenantId, { sign: key });
  } catch (e) {
    if (await taken()) throw invalid(M.signTaken);
    throw e;
  }
}
