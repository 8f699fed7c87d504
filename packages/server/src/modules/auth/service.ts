import { randomBytes } from 'node:crypto';
import {
  CODE,
  LIMITS,
  M,
  PHONE_VALUE_PATTERN,
  type LoginBody,
  type LoginResult,
  type RegisterBody,
  type SendType,
  type VerifyType,
} from '@hublink/contract';
import { ensureContactFree, insertAccount, setAccountPassword } from '../../domain/accounts';
import { authenticate as authenticateActor, type Actor } from '../../core/actor';
import { destinationKey } from '../../core/codes';
import type { Ctx } from '../../core/context';
import { ApiError, forbidden, invalid } from '../../core/errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../core/passwords';
import { leaveProof, proofKey } from '../../domain/proofs';
import { type Limit, RATE_LIMITS } from '../../core/ratelimit';
import type { Account } from '../../db/types';
import type { Db } from '../../db/connect';
import { maskEmail, maskPhone, userMessage } from './users';

const loginLimits = {
  account: { ...RATE_LIMITS.loginPerAccount, message: M.tooManyLogins },
  ip: { ...RATE_LIMITS.loginPerIp, message: M.tooManyLogins },
};

/**
 * The main accounts a login name can mean, in the order they are tried: the username, then the
 * email, then the phone ('13800000000' means +86). A username made of digits and another account's
 * phone can be the same text; each account then signs in with its own password.
 */
async function findAccounts(ctx: Ctx, login: string): Promise<Account[]> {
  const v = login.trim();
  const key = v.toLowerCase();
  const phones = PHONE_VALUE_PATTERN.test(v) ? [v] : /^\d{4,15}$/.test(v) ? [`+${LIMITS.defaultAreaCode} ${v}`] : [];
  const rows = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where((eb) =>
      eb.or([eb('username_key', '=', key), eb('email', '=', key), ...(phones.length ? [eb('phone', 'in', phones)] : [])]),
    )
    .execute();
  const rank = (a: Account) => (a.username_key === key ? 0 : a.email === key ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** The one main account a login name means (recovery): the first of findAccounts. */
async function findAccount(ctx: Ctx, login: string): Promise<Account | undefined> {
  return (await findAccounts(ctx, login))[0];
}

async function checkCaptcha(ctx: Ctx, uniqid: string, code: string) {
  if (!(await ctx.captcha.consume(uniqid, code))) throw invalid(M.captchaWrong);
}

interface LoginCandidate {
  hash: string;
  status: number;
  tenantId: number;
  ramId: number | null;
}

/**
 * The sign-in rules shared by both logins: the captcha is used up by any attempt; failures count
 * per client address and per account (the account, not the text typed, so switching between
 * username, phone and email does not reset the count; names that match no account count by text);
 * a disabled account is refused only after its password was proven.
 */
async function loginAs(
  ctx: Ctx,
  input: LoginBody,
  ip: string,
  find: () => Promise<LoginCandidate[]>,
  onSuccess?: (c: LoginCandidate) => Promise<void>,
): Promise<LoginResult> {
  await ctx.limiter.check(loginLimits.ip, ip);
  await checkCaptcha(ctx, input.uniqid, input.code);
  const candidates = await find();
  const subjectOf = (c: LoginCandidate) => `${c.tenantId}:${c.ramId ?? 0}`;
  const subjects = candidates.length ? candidates.map(subjectOf) : [`name:${input.username.trim().toLowerCase()}`];
  // Counted before the passwords are checked (parallel guesses cannot all pass a look taken first);
  // a success gives the address's count back and forgets the account's.
  const attempt = await ctx.limiter.reserve([loginLimits.ip, ip], ...subjects.map((subject): [Limit, string] => [loginLimits.account, subject]));

  let found: LoginCandidate | undefined;
  for (const c of candidates) {
    if (await verifyPassword(input.password, c.hash)) {
      found = c;
      break;
    }
  }
  if (!candidates.length) await verifyPassword(input.password, DUMMY_HASH);
  if (!found) throw invalid(M.loginFailed);
  await attempt.release();
  await ctx.limiter.reset(loginLimits.account, subjectOf(found));
  if (found.status !== 1) throw invalid(M.accountDisabled);
  await onSuccess?.(found);
  const issued = await ctx.tokens.issue(found.tenantId, found.ramId);
  return {
    access_token: issued.token,
    token_expire_time: issued.expiresIn,
    user: await userMessage(ctx, found.tenantId, found.ramId),
  };
}

export function login(ctx: Ctx, input: LoginBody, ip: string) {
  return loginAs(ctx, input, ip, async () =>
    (await findAccounts(ctx, input.username)).map((a) => ({ hash: a.password_hash, status: a.status, tenantId: a.id, ramId: null })),
  );
}

/** Sub-account login as 'name@domain'. */
export function loginRam(ctx: Ctx, input: LoginBody, ip: string) {
  return loginAs(
    ctx,
    input,
    ip,
    async () => {
      const at = input.username.lastIndexOf('@');
      if (at <= 0) return [];
      const name = input.username.slice(0, at).toLowerCase();
      const domain = input.username.slice(at + 1).toLowerCase();
      const row = await ctx.db
        .selectFrom('ram_account')
        .innerJoin('account', 'account.id', 'ram_account.tenant_id')
        .select(['ram_account.id', 'ram_account.password_hash', 'ram_account.status', 'ram_account.tenant_id', 'account.status as tenant_status'])
        .where('account.domain', '=', domain)
        .where('ram_account.username_key', '=', name)
        .executeTakeFirst();
      if (!row) return [];
      return [
        {
          hash: row.password_hash,
          status: row.status === 1 && row.tenant_status === 1 ? 1 : 0,
          tenantId: row.tenant_id,
          ramId: row.id,
        },
      ];
    },
    // The ram module keeps the sub-account's last sign-in time from this event.
    async (c) => ctx.events.emit(ctx.db, { type: 'account.signed_in', tenant_id: c.tenantId, ram_id: c.ramId! }),
  );
}

/** A new token for the session of the given (possibly expired) bearer token. */
export async function refresh(ctx: Ctx, authorization: string | undefined): Promise<LoginResult> {
  const actor = await authenticateActor(ctx.db, ctx.tokens, authorization, { allowExpired: true });
  const issued = await ctx.tokens.refresh(actor.sessionId);
  return { access_token: issued.token, token_expire_time: issued.expiresIn, user: await userMessage(ctx, issued.tenantId, issued.ramId) };
}

export async function logout(ctx: Ctx, actor: Actor): Promise<void> {
  await ctx.tokens.signOut(actor.sessionId);
}

async function ensureDestinationFree(ctx: Ctx, type: SendType, value: string) {
  const key = destinationKey(type, value);
  const taken = await ctx.db.selectFrom('account').select('id').where(type, '=', key).executeTakeFirst();
  if (taken) throw invalid(type === 'phone' ? M.phoneTaken : M.emailTaken);
}

/**
 * A registration code for a phone or email no account has. Asking about a taken one counts against
 * the address's and the client's code limits like a sent code, so the call cannot be used to list
 * registered numbers faster than codes can be sent.
 */
export async function sendRegisterCode(ctx: Ctx, type: SendType, value: string, ip: string) {
  try {
    await ensureDestinationFree(ctx, type, value);
  } catch (e) {
    await ctx.limiter.hit({ ...RATE_LIMITS.codePerDestination, message: M.tooManyCodes }, destinationKey(type, value));
    await ctx.limiter.hit({ ...RATE_LIMITS.codePerIp, message: M.tooManyCodes }, ip);
    throw e;
  }
  await ctx.codes.send(type, value, 'register', ip);
}

/** A lowercase letters-and-digits suffix no other tenant has, for software member logins. */
async function freshSign(ctx: Ctx): Promise<string> {
  for (;;) {
    const sign = randomBytes(6).toString('hex').replace(/^\d/, 'h').slice(0, 8);
    const taken = await ctx.db.selectFrom('account').select('id').where('sign', '=', sign).executeTakeFirst();
    if (!taken) return sign;
  }
}

const registerLimit = { ...RATE_LIMITS.registerPerIp, message: M.tooManyRegisters };

/**
 * Registration. Failed attempts count per client address, as logins do. The code is checked first:
 * whether a username, phone or email is taken is said only to someone who proved the address with
 * a valid code, so the call cannot list accounts. A refusal after a valid code leaves the code
 * usable (with the try counted), so choosing another username needs no new code.
 */
export async function register(ctx: Ctx, input: RegisterBody, ip: string): Promise<void> {
  // Reserved before the work, kept only by a refusal of the input (so parallel tries cannot all pass).
  const attempt = await ctx.limiter.reserve([registerLimit, ip]);
  try {
    await createAccount(ctx, input);
  } catch (e) {
    if (!(e instanceof ApiError && e.code === CODE.invalid)) await attempt.release();
    throw e;
  }
  await attempt.release();
}

async function usernameTaken(ctx: Ctx, key: string): Promise<boolean> {
  return !!(await ctx.db.selectFrom('account').select('id').where('username_key', '=', key).executeTakeFirst());
}

async function createAccount(ctx: Ctx, input: RegisterBody): Promise<void> {
  const codeId = await ctx.codes.check(input.type, input.verify, 'register', input.code);
  await insertNewAccount(ctx, { ...input, destination: { type: input.type, value: input.verify } }, (trx) => ctx.codes.use(codeId, trx));
}

export interface OperatorAccount {
  username: string;
  nickname: string;
  password: string;
  /** A phone or email the account is bound to (the operator vouches for it: no code is sent). */
  destination?: { type: SendType; value: string };
}

/** A main account the operator makes (`hublink ops tenants create`): the rules of registration, without a code. Answers its id. */
export async function createAccountAsOperator(ctx: Ctx, input: OperatorAccount): Promise<number> {
  await insertNewAccount(ctx, input);
  const row = await ctx.db.selectFrom('account').select('id').where('username_key', '=', input.username.toLowerCase()).executeTakeFirstOrThrow();
  return row.id;
}

async function insertNewAccount(ctx: Ctx, input: OperatorAccount, inTransaction?: (trx: Db) => Promise<void>): Promise<void> {
  const key = input.username.toLowerCase();
  const dest = input.destination;
  if (await usernameTaken(ctx, key)) throw invalid(M.usernameTaken);
  if (dest) await ensureDestinationFree(ctx, dest.type, dest.value);
  const passwordHash = await hashPassword(input.password);
  const sign = await freshSign(ctx);
  const now = Date.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await inTransaction?.(trx);
      await insertAccount(trx, {
        username: input.username,
        username_key: key,
        nickname: input.nickname,
        password_hash: passwordHash,
        phone: dest?.type === 'phone' ? destinationKey('phone', dest.value) : null,
        email: dest?.type === 'email' ? destinationKey('email', dest.value) : null,
        sign,
        domain: key,
        ...ctx.config.defaultPlan,
        create_time: now,
        update_time: now,
      });
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // Two registrations raced past the checks above and a unique index decided: say which one.
    // Anything else is not the caller's fault and goes on as an internal error.
    if (await usernameTaken(ctx, key)) throw invalid(M.usernameTaken);
    if (dest) await ensureDestinationFree(ctx, dest.type, dest.value);
    throw e;
  }
}

// Password recovery (spec 1 §2.5)

const recoveryLimit = { ...RATE_LIMITS.recoveryPerIp, message: M.tooManyRequests };

export async function findPassword(ctx: Ctx, input: { username: string; img_code: string; uniqid: string }, ip: string) {
  await ctx.limiter.hit(recoveryLimit, ip);
  await checkCaptcha(ctx, input.uniqid, input.img_code);
  const account = await findAccount(ctx, input.username);
  if (!account) throw invalid(M.accountNotFound);
  if (!account.phone && !account.email) throw invalid(M.noRecoveryChannel);
  const now = Date.now();
  await ctx.db
    .insertInto('recovery')
    .values({ id: input.uniqid, account_id: account.id, verified_channel: null, create_time: now, expires_at: now + LIMITS.recoveryTtlSeconds * 1000 })
    .execute();
  return {
    ...(account.phone ? { phone: maskPhone(account.phone) } : {}),
    ...(account.email ? { email: maskEmail(account.email) } : {}),
  };
}

async function liveRecovery(ctx: Ctx, uniqid: string) {
  const r = await ctx.db
    .selectFrom('recovery')
    .innerJoin('account', 'account.id', 'recovery.account_id')
    .select(['recovery.id', 'recovery.account_id', 'recovery.verified_channel', 'recovery.expires_at', 'account.phone', 'account.email'])
    .where('recovery.id', '=', uniqid)
    .executeTakeFirst();
  if (!r || r.expires_at <= Date.now()) throw invalid(M.recoveryExpired);
  return r;
}

function channelValue(r: { phone: string | null; email: string | null }, type: SendType): string {
  const v = type === 'phone' ? r.phone : r.email;
  if (!v) throw invalid(M.channelNotBound);
  return v;
}

export async function findPasswordCode(ctx: Ctx, uniqid: string, type: SendType, ip: string) {
  const r = await liveRecovery(ctx, uniqid);
  await ctx.codes.send(type, channelValue(r, type), 'find_password', ip);
}

export async function authenticateRecovery(ctx: Ctx, uniqid: string, type: SendType, code: string) {
  const r = await liveRecovery(ctx, uniqid);
  await ctx.codes.consume(type, channelValue(r, type), 'find_password', code);
  await ctx.db.updateTable('recovery').set({ verified_channel: type }).where('id', '=', r.id).execute();
}

export async function resetPassword(ctx: Ctx, uniqid: string, password: string) {
  const r = await liveRecovery(ctx, uniqid);
  if (!r.verified_channel) throw invalid(M.recoveryNotVerified);
  await setAccountPassword(ctx.db, r.account_id, password);
  await ctx.db.deleteFrom('recovery').where('id', '=', r.id).execute();
}

// Codes for signed-in users (spec 1 §7 /verify/send_code and /verify/verify)

/**
 * Purposes whose code proves who the caller is: it goes only to the caller's own bound phone or
 * email (the channel named, or either for a password change). Other purposes (binding or changing
 * to a new phone or email, a member's phone) send to the new destination the caller gives.
 */
const OWN_CHANNEL: Partial<Record<VerifyType, SendType | 'either'>> = {
  verify_phone: 'phone',
  verify_email: 'email',
  edit_password: 'either',
};

/** The caller's own bound phone or email. */
async function ownDestination(ctx: Ctx, actor: Actor, type: SendType): Promise<string> {
  if (actor.ramId !== null) throw invalid(M.channelNotBound);
  const a = await ctx.db.selectFrom('account').select(['phone', 'email']).where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
  return channelValue(a, type);
}

/**
 * Purposes that send to a new phone or email of the main account (its bindings and changes): only a
 * main account asks for them, and an address another account has bound gets nothing.
 */
const NEW_CONTACT: Partial<Record<VerifyType, SendType>> = {
  bind_phone: 'phone',
  edit_phone: 'phone',
  bind_email: 'email',
  edit_email: 'email',
};

export async function sendCode(ctx: Ctx, actor: Actor, input: { send_type: SendType; send_value: string; verify_type: VerifyType }, ip: string) {
  const contact = NEW_CONTACT[input.verify_type];
  if (contact) {
    if (actor.ramId !== null) throw forbidden(M.deniedMainOnly);
    if (contact !== input.send_type) throw invalid(M.sendTypeMismatch);
    await ensureContactFree(ctx.db, actor.tenantId, contact, destinationKey(contact, input.send_value));
  }
  const own = OWN_CHANNEL[input.verify_type];
  if (!own) return ctx.codes.send(input.send_type, input.send_value, input.verify_type, ip);
  if (own !== 'either' && own !== input.send_type) throw invalid(M.channelNotBound);
  const destination = await ownDestination(ctx, actor, input.send_type);
  if (destinationKey(input.send_type, input.send_value) !== destination) throw invalid(M.channelNotBound);
  await ctx.codes.send(input.send_type, destination, input.verify_type, ip);
}

/** Checks a code sent to the caller's own phone or email and remembers the proof for 10 minutes. */
export async function verifyCode(ctx: Ctx, actor: Actor, input: { send_type: SendType; verify_type: VerifyType; code: string }) {
  const destination = await ownDestination(ctx, actor, input.send_type);
  await ctx.codes.consume(input.send_type, destination, input.verify_type, input.code);
  // Account changes take it (core/proofs.ts).
  await leaveProof(ctx.store, proofKey(actor.tenantId, input.verify_type));
}
