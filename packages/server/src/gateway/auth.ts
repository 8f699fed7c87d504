import { DEVICE_CLOSE, LDAP_MEMBER_SOURCE, type HelloMessage } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { credentialHash, issueDeviceCredential } from '../domain/deviceCredentials';
import { ApiError } from '../core/errors';
import { directorySignIn, type DirectoryVerdict } from '../domain/ldapSignIn';
import { DUMMY_HASH, verifyPassword } from '../core/passwords';
import type { Limit, Reservation } from '../core/ratelimit';
import { heldForApproval } from './approval';

/** Failed device sign-ins, per member and per address (a success resets the member's count). */
export const DEVICE_AUTH_LIMITS = {
  perMember: { name: 'device-member', max: 10, windowSeconds: 900, message: 'too many attempts' },
  perIp: { name: 'device-ip', max: 200, windowSeconds: 900, message: 'too many attempts' },
} as const satisfies Record<string, Limit>;

/**
 * New device connections per address and minute, whatever they say (`/api/device/*` is outside the
 * console's request limit). Generous, because a site's whole fleet can sit behind one NAT address and
 * reconnect together after a restart of the server; a refused device retries with its back-off.
 */
export const DEVICE_CONNECTION_LIMIT = { name: 'device-connect', max: 600, windowSeconds: 60, message: 'too many connections' } as const satisfies Limit;

export interface DeviceMember {
  id: number;
  tenant_id: number;
  router_name: string;
  router_type: number;
  status: number;
}

/** A refusal names the member when the hello named one (diagnosis records its last refused hello). */
export type AuthOutcome =
  | { ok: true; member: DeviceMember; credential?: string }
  | { ok: false; code: number; reason: string; member?: Pick<DeviceMember, 'id' | 'tenant_id'> };

const refuse = (code: number, reason: string, member?: Pick<DeviceMember, 'id' | 'tenant_id'>): AuthOutcome => ({
  ok: false,
  code,
  reason,
  ...(member ? { member: { id: member.id, tenant_id: member.tenant_id } } : {}),
});

/** The member a hello names: a router by its name (unique across tenants), an app by `username@sign`. */
async function findMember(ctx: Ctx, hello: HelloMessage): Promise<{ key: string; member: (DeviceMember & { secret_hash: string; source: string }) | undefined }> {
  const cols = ['member.id', 'member.tenant_id', 'member.router_name', 'member.router_type', 'member.status', 'member.secret_hash', 'member.source'] as const;
  if (hello.kind === 'router') {
    const key = hello.router_name.toLowerCase();
    const member = await ctx.db.selectFrom('member').select(cols).where('router_key', '=', key).where('router_type', '=', 1).executeTakeFirst();
    return { key: `r:${key}`, member };
  }
  const at = hello.login.lastIndexOf('@');
  const username = (at > 0 ? hello.login.slice(0, at) : hello.login).toLowerCase();
  const sign = at > 0 ? hello.login.slice(at + 1) : '';
  const key = `a:${username}@${sign.toLowerCase()}`;
  if (!sign) return { key, member: undefined };
  const member = await ctx.db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.tenant_id')
    .select(cols)
    .where('account.sign', '=', sign)
    .where('member.router_key', '=', username)
    .where('member.router_type', '=', 2)
    .executeTakeFirst();
  return { key, member };
}

/**
 * Reserves one sign-in attempt against the member's and the address's limits before the password is
 * checked, or answers null when either is full. A wrong password keeps the reservation as its failure;
 * a success, or a check that could not be made, releases it.
 */
export async function reserveAttempt(ctx: Ctx, key: string, ip: string): Promise<Reservation | null> {
  try {
    return await ctx.limiter.reserve([DEVICE_AUTH_LIMITS.perIp, ip], [DEVICE_AUTH_LIMITS.perMember, key]);
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/** A proven password: the address's reservation is given back and the member's failures forgotten. */
export async function attemptSucceeded(ctx: Ctx, attempt: Reservation, key: string) {
  await attempt.release();
  await ctx.limiter.reset(DEVICE_AUTH_LIMITS.perMember, key);
}

/**
 * Who a hello is. A credential from an earlier welcome is checked by its hash (cheap: reconnect storms
 * stay cheap); otherwise the secret is checked with scrypt (slow on purpose) and a new credential is
 * issued. Every secret check is counted against the member and the address before it is made, and a
 * success gives its count back; a disabled member is refused after
 * its secret was proven, so the refusal tells nothing to someone who does not know it.
 */
export async function authenticate(ctx: Ctx, hello: HelloMessage, ip: string, now = Date.now()): Promise<AuthOutcome> {
  const { key, member } = await findMember(ctx, hello);

  // A credential is 256 random bits: guessing one is hopeless, so it is checked before (and apart from)
  // the failure limits, and a device whose neighbour behind the same NAT keeps failing still comes back.
  if (hello.credential && member) {
    const row = await ctx.db
      .selectFrom('device_credential')
      .select('id')
      .where('token_hash', '=', credentialHash(hello.credential))
      .where('member_id', '=', member.id)
      .executeTakeFirst();
    if (row) {
      if (member.status !== 1) return refuse(DEVICE_CLOSE.disabled, 'member disabled', member);
      return (await heldForApproval(ctx, member, hello, ip, now)) ?? { ok: true, member };
    }
  }
  if (!hello.secret) return refuse(DEVICE_CLOSE.authFailed, hello.credential ? 'credential not valid: sign in with the secret' : 'authentication failed', hello.credential ? undefined : member);

  const attempt = await reserveAttempt(ctx, key, ip);
  if (!attempt) return refuse(DEVICE_CLOSE.tooManyAttempts, 'too many failed sign-ins, try later', member);
  // A member imported from the tenant's directory has no password here: the directory checks it.
  const verdict: DirectoryVerdict =
    member?.source === LDAP_MEMBER_SOURCE ? await directorySignIn(ctx, member, hello.secret) : (await verifyPassword(hello.secret, member?.secret_hash ?? DUMMY_HASH)) ? 'ok' : 'wrong';
  // Not the device's fault: no failure counted.
  if (verdict === 'unavailable') {
    await attempt.release();
    return refuse(DEVICE_CLOSE.authFailed, 'the directory could not check the password, try later');
  }
  if (!member || verdict === 'wrong') return refuse(DEVICE_CLOSE.authFailed, 'authentication failed', member);
  await attemptSucceeded(ctx, attempt, key);
  if (member.status !== 1 || verdict === 'disabled') return refuse(DEVICE_CLOSE.disabled, 'member disabled', member);
  // A device that waits for approval (issue 30) gets no credential: issuing one would push out the member's older ones.
  return (await heldForApproval(ctx, member, hello, ip, now)) ?? { ok: true, member, credential: await issueDeviceCredential(ctx, member, now) };
}
