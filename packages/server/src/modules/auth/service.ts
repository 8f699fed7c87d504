import { randomBytes } from 'node:crypto';
import {
  LIMITS,
  M,
  PHONE_VALUE_PATTERN,
  type LoginBody,
  type LoginResult,
  type RegisterBody,
  type SendType,
  type VerifyType,
} from '@hublink/contract';
import type { Actor } from '../../core/actor';
import { destinationKey } from '../../core/codes';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../core/passwords';
import { RATE_LIMITS } from '../../core/ratelimit';
import type { Account } from '../../db/types';
import { maskEmail, maskPhone, userMessage } from './users';

const loginLimits = {
  account: { ...RATE_LIMITS.loginPerAccount, message: M.tooManyLogins },
  ip: { ...RATE_LIMITS.loginPerIp, message: M.tooManyLogins },
};

/** A main account by username, phone ('13800000000' means +86) or email. */
async function findAccount(ctx: Ctx, login: string): Promise<Account | undefined> {
  const v = login.trim();
  const phones = PHONE_VALUE_PATTERN.test(v) ? [v] : /^\d{4,15}$/.test(v) ? [`+${LIMITS.defaultAreaCode} ${v}`] : [];
  return ctx.db
    .selectFrom('account')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('username_key', '=', v.toLowerCase()),
        eb('email', '=', v.toLowerCase()),
        ...(phones.length ? [eb('phone', 'in', phones)] : []),
      ]),
    )
    .executeTakeFirst();
}

async function checkCaptcha(ctx: Ctx, uniqid: string, code: string) {
  if (!(await ctx.captcha.consume(uniqid, code))) throw invalid(M.captchaWrong);
}

async function loginAs(
  ctx: Ctx,
  input: LoginBody,
  ip: string,
  find: () => Promise<{ hash: string; status: number; tenantId: number; ramId: number | null } | undefined>,
): Promise<LoginResult> {
  const subject = input.username.toLowerCase();
  await ctx.limiter.check(loginLimits.ip, ip);
  await ctx.limiter.check(loginLimits.account, subject);
  await checkCaptcha(ctx, input.uniqid, input.code);
  const found = await find();
  const passwordOk = await verifyPassword(input.password, found?.hash ?? DUMMY_HASH);
  if (!found || !passwordOk) {
    await ctx.limiter.hit(loginLimits.ip, ip);
    await ctx.limiter.hit(loginLimits.account, subject);
    throw invalid(M.loginFailed);
  }
  if (found.status !== 1) throw invalid(M.accountDisabled);
  await ctx.limiter.reset(loginLimits.account, subject);
  const issued = await ctx.tokens.issue(found.tenantId, found.ramId);
  return {
    access_token: issued.token,
    token_expire_time: issued.expiresIn,
    user: await userMessage(ctx, found.tenantId, found.ramId),
  };
}

export function login(ctx: Ctx, input: LoginBody, ip: string) {
  return loginAs(ctx, input, ip, async () => {
    const a = await findAccount(ctx, input.username);
    return a && { hash: a.password_hash, status: a.status, tenantId: a.id, ramId: null };
  });
}

/** Sub-account login as 'name@domain'. */
export function loginRam(ctx: Ctx, input: LoginBody, ip: string) {
  return loginAs(ctx, input, ip, async () => {
    const at = input.username.lastIndexOf('@');
    if (at <= 0) return undefined;
    const name = input.username.slice(0, at).toLowerCase();
    const domain = input.username.slice(at + 1).toLowerCase();
    const row = await ctx.db
      .selectFrom('ram_account')
      .innerJoin('account', 'account.id', 'ram_account.tenant_id')
      .select(['ram_account.id', 'ram_account.password_hash', 'ram_account.status', 'ram_account.tenant_id', 'account.status as tenant_status'])
      .where('account.domain', '=', domain)
      .where('ram_account.username_key', '=', name)
      .executeTakeFirst();
    if (!row) return undefined;
    await ctx.db.updateTable('ram_account').set({ login_time: Date.now() }).where('id', '=', row.id).execute();
    return {
      hash: row.password_hash,
      status: row.status === 1 && row.tenant_status === 1 ? 1 : 0,
      tenantId: row.tenant_id,
      ramId: row.id,
    };
  });
}

export async function refresh(ctx: Ctx, token: string | null): Promise<LoginResult> {
  if (!token) throw invalid(M.tokenMissing);
  const issued = await ctx.tokens.refresh(token);
  return { access_token: issued.token, token_expire_time: issued.expiresIn, user: await userMessage(ctx, issued.tenantId, issued.ramId) };
}

export const logout = (ctx: Ctx, actor: Actor) => ctx.tokens.revoke(actor.sessionId);

async function ensureDestinationFree(ctx: Ctx, type: SendType, value: string) {
  const key = destinationKey(type, value);
  const taken = await ctx.db.selectFrom('account').select('id').where(type, '=', key).executeTakeFirst();
  if (taken) throw invalid(type === 'phone' ? M.phoneTaken : M.emailTaken);
}

export async function sendRegisterCode(ctx: Ctx, type: SendType, value: string, ip: string) {
  await ensureDestinationFree(ctx, type, value);
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

export async function register(ctx: Ctx, input: RegisterBody): Promise<void> {
  const key = input.username.toLowerCase();
  const taken = await ctx.db.selectFrom('account').select('id').where('username_key', '=', key).executeTakeFirst();
  if (taken) throw invalid(M.usernameTaken);
  await ensureDestinationFree(ctx, input.type, input.verify);
  await ctx.codes.consume(input.type, input.verify, 'register', input.code);
  const now = Date.now();
  try {
    await ctx.db
      .insertInto('account')
      .values({
        username: input.username,
        username_key: key,
        nickname: input.nickname,
        password_hash: await hashPassword(input.password),
        phone: input.type === 'phone' ? destinationKey('phone', input.verify) : null,
        email: input.type === 'email' ? destinationKey('email', input.verify) : null,
        sign: await freshSign(ctx),
        domain: key,
        ...ctx.config.defaultPlan,
        create_time: now,
        update_time: now,
      })
      .execute();
  } catch (e) {
    // Two registrations raced past the checks above; the unique indexes decided.
    ctx.log.warn({ err: (e as Error).message }, 'register: unique constraint');
    throw invalid(M.usernameTaken);
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
  await ctx.db
    .updateTable('account')
    .set({ password_hash: await hashPassword(password), update_time: Date.now() })
    .where('id', '=', r.account_id)
    .execute();
  await ctx.db.deleteFrom('recovery').where('id', '=', r.id).execute();
  await ctx.tokens.revokeAll(r.account_id, null);
}

// Codes for signed-in users (spec 1 §7 /verify/send_code and /verify/verify)

const OWN_CHANNEL: Partial<Record<VerifyType, SendType>> = { verify_phone: 'phone', verify_email: 'email' };

/** The caller's own bound phone or email. */
async function ownDestination(ctx: Ctx, actor: Actor, type: SendType): Promise<string> {
  if (actor.ramId !== null) throw invalid(M.channelNotBound);
  const a = await ctx.db.selectFrom('account').select(['phone', 'email']).where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
  return channelValue(a, type);
}

export async function sendCode(ctx: Ctx, actor: Actor, input: { send_type: SendType; send_value: string; verify_type: VerifyType }, ip: string) {
  const own = OWN_CHANNEL[input.verify_type];
  if (own && own !== input.send_type) throw invalid(M.channelNotBound);
  const destination = own ? await ownDestination(ctx, actor, input.send_type) : input.send_value;
  if (own && destinationKey(input.send_type, input.send_value) !== destination) throw invalid(M.channelNotBound);
  await ctx.codes.send(input.send_type, destination, input.verify_type, ip);
}

/** Checks a code sent to the caller's own phone or email and remembers the proof for 10 minutes. */
export async function verifyCode(ctx: Ctx, actor: Actor, input: { send_type: SendType; verify_type: VerifyType; code: string }) {
  const destination = await ownDestination(ctx, actor, input.send_type);
  await ctx.codes.consume(input.send_type, destination, input.verify_type, input.code);
  await ctx.store.set(`verified:${actor.tenantId}:${input.verify_type}`, String(Date.now()), LIMITS.codeTtlSeconds);
}
