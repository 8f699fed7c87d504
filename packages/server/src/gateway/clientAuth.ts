import { randomUUID } from 'node:crypto';
import { LDAP_MEMBER_SOURCE, type ClientAuthMessage, type ClientAuthResultMessage, CM } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { credentialHash } from '../domain/deviceCredentials';
import { directorySignIn, type DirectoryVerdict } from '../domain/ldapSignIn';
import { verifyPassword } from '../core/passwords';
import { signsInOnWeb } from '../domain/webSignIn';
import { deviceApproval } from './approval';
import { attemptSucceeded, reserveAttempt, type DeviceMember } from './auth';
import { openWebSignIn } from './webSignIn';

/*
 * Who may use a center's software service (issue 30, docs/clients.md). The center's OpenVPN has checked
 * the certificate against the network's CA and CRL; the platform checks the rest: the certificate is the
 * member's current one, the member is in the network, enabled, of the center's tenant, and the person
 * proved who they are — the member's device credential (the HubLink agent), its password, its
 * directory password, or a sign-in at its WeCom, Feishu or DingTalk source in a browser (webSignIn.ts). A refusal is written to the member's connect log with its reason.
 */

export type ClientVerdict = Omit<ClientAuthResultMessage, 'type' | 'id'>;

interface Judged {
  verdict: ClientVerdict;
  /** Admitted with the member's device credential: its HubLink agent, which reports its own sessions. */
  byAgent?: boolean;
  /** The software member the certificate names (null: none in the network, nothing to log). */
  member: { id: number; tenant_id: number; router_name: string } | null;
}

export const deny = (reason: string, client_reason: string): ClientVerdict => ({ verdict: 'deny', reason, client_reason, url: '', timeout: 0 });
export const ACCEPT: ClientVerdict = { verdict: 'accept', reason: '', client_reason: '', url: '', timeout: 0 };

/** OpenVPN gives the serial in decimal; the PKI keeps it in lowercase hex. */
function hexSerial(decimal: string): string | null {
  if (!/^\d{1,60}$/.test(decimal)) return null;
  return BigInt(decimal).toString(16);
}

/** The center's session that asks, where a web sign-in's final answer goes, and the origin its client opens. */
export interface Asker {
  session_id: string;
  origin: string;
}

/** The verdict, and whether the client is the member's HubLink agent (else a standard client, whose sessions its center reports for it). */
export async function judgeClient(ctx: Ctx, center: DeviceMember, m: ClientAuthMessage, now = Date.now(), asker?: Asker): Promise<{ verdict: ClientVerdict; byAgent: boolean }> {
  const judged = await judge(ctx, center, m, asker);
  if (judged.verdict.verdict === 'deny' && judged.member) await logClientRefusal(ctx, judged.member, m, judged.verdict.reason, now);
  return { verdict: judged.verdict, byAgent: judged.byAgent === true };
}

/** A standard client's refusal, in its member's connect log with the reason. */
export async function logClientRefusal(ctx: Ctx, member: NonNullable<Judged['member']>, m: Pick<ClientAuthMessage, 'orig' | 'client_version'>, reason: string, now = Date.now()) {
  const [ip, port] = splitOrig(m.orig);
  await ctx.db
    .insertInto('connect_log')
    .values({ tenant_id: member.tenant_id, member_id: member.id, router_name: member.router_name, remote_ip: ip, remote_port: port, version: m.client_version.slice(0, 32), online: 0, session_id: randomUUID(), create_time: now, reason: reason.slice(0, 200) })
    .execute();
}

/**
 * A standard client as device approval knows it: by the address it gives (IV_HWADDR, with
 * push-peer-info) on its platform; one that gives none counts as one device per platform.
 */
export function standardClientDevice(m: Pick<ClientAuthMessage, 'orig' | 'platform' | 'hwaddr' | 'client_version'>) {
  const [ip] = splitOrig(m.orig);
  return { device_id: `ovpn:${m.platform}:${m.hwaddr.toLowerCase() || '-'}`, ip, os: m.platform, model: m.client_version, brand: 'OpenVPN' };
}

export function splitOrig(orig: string): [string, number] {
  const at = orig.lastIndexOf(':');
  if (at <= 0) return [orig.slice(0, 64), 0];
  const port = Number(orig.slice(at + 1));
  return [orig.slice(0, at).slice(0, 64), Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0];
}

async function judge(ctx: Ctx, center: DeviceMember, m: ClientAuthMessage, asker?: Asker): Promise<Judged> {
  const { db } = ctx;
  const network = await db
    .selectFrom('network as n')
    .innerJoin('network_member as nm', 'nm.network_id', 'n.id')
    .select(['n.id'])
    .where('n.tenant_id', '=', center.tenant_id)
    .where('n.network_number', '=', m.network_number)
    .where('nm.member_id', '=', center.id)
    .where('nm.tenant_id', '=', center.tenant_id)
    .where('nm.member_type', '=', 'center')
    .executeTakeFirst();
  if (!network) return { verdict: deny(`${center.router_name} is not a center of network ${m.network_number}`, ''), member: null };

  const member = await db
    .selectFrom('network_member as nm')
    .innerJoin('member as mb', 'mb.id', 'nm.member_id')
    .innerJoin('account as a', 'a.id', 'mb.tenant_id')
    .select(['mb.id', 'mb.tenant_id', 'mb.router_name', 'mb.router_key', 'mb.router_type', 'mb.status', 'mb.secret_hash', 'mb.source', 'mb.phone', 'a.sign'])
    .where('nm.network_id', '=', network.id)
    .where('nm.tenant_id', '=', center.tenant_id)
    .where('mb.tenant_id', '=', center.tenant_id)
    .where('mb.router_key', '=', m.common_name.toLowerCase())
    .where('mb.router_type', '=', 2)
    .executeTakeFirst();
  if (!member) return { verdict: deny(`no software member ${m.common_name} in the network`, CM.clientNotInNetwork), member: null };
  const who = { id: member.id, tenant_id: member.tenant_id, router_name: member.router_name };

  // The certificate must be the member's current one: a re-issued profile's old certificate is refused
  // here even before the center has the new CRL.
  const serial = hexSerial(m.serial);
  const current = await db
    .selectFrom('member_certificate')
    .select('serial')
    .where('tenant_id', '=', member.tenant_id)
    .where('network_id', '=', network.id)
    .where('member_id', '=', member.id)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  // The PKI writes whole bytes (a first byte below 0x10 keeps its leading zero); BigInt writes none.
  if (!serial || !current || current.serial.replace(/^0+/, '') !== serial) return { verdict: deny('the certificate was re-issued or revoked', CM.clientCertificateRevoked), member: who };
  if (member.status !== 1) return { verdict: deny('member disabled', CM.clientDisabled), member: who };
  // A renegotiation of an admitted session: the person was checked when it began.
  if (m.reauth) return { verdict: ACCEPT, member: who };

  // A member of a WeCom, Feishu or DingTalk source without a password: its profile asks for no login,
  // and the person signs in at the provider in a browser (OpenVPN's WEB_AUTH, gateway/webSignIn.ts).
  if (!m.username && !m.password && signsInOnWeb(member)) {
    if (!m.sso.split(',').includes('webauth')) return { verdict: deny('the client cannot sign in on the web (no webauth in IV_SSO)', CM.clientWebSignInUnsupported), member: who };
    if (!asker?.origin) return { verdict: deny('no address for the web sign-in', CM.clientWebSignInRefused), member: who };
    const web = { tenant_id: member.tenant_id, member_id: member.id, router_name: member.router_name, network_id: network.id, center_id: center.id };
    const question = { session_id: asker.session_id, request_id: m.id, orig: m.orig, platform: m.platform, hwaddr: m.hwaddr, client_version: m.client_version };
    return { verdict: await openWebSignIn(ctx, { ...web, ...question }, asker.origin), member: who };
  }

  if (!m.username && !m.password) return { verdict: deny('no login given', CM.clientLoginRequired), member: who };
  if (!namesMember(m.username, member)) return { verdict: deny(`login ${m.username.slice(0, 64)} is not the certificate's member`, CM.clientLoginMismatch), member: who };

  // The HubLink agent presents its device credential (256 random bits): a cheap check, no failure limit.
  const credential = await db.selectFrom('device_credential').select('id').where('token_hash', '=', credentialHash(m.password)).where('member_id', '=', member.id).executeTakeFirst();
  if (credential) return { verdict: ACCEPT, member: who, byAgent: true };

  const [ip] = splitOrig(m.orig);
  const key = memberLimitKey(member);
  const attempt = await reserveAttempt(ctx, key, ip);
  if (!attempt) return { verdict: deny('too many failed sign-ins, try later', CM.clientTooManyAttempts), member: who };
  const verdict = await passwordVerdict(ctx, member, m.password);
  if (verdict === 'unavailable') {
    await attempt.release();
    return { verdict: deny('the directory could not check the password', CM.clientDirectoryUnavailable), member: who };
  }
  if (verdict === 'wrong') return { verdict: deny('wrong password', CM.clientWrongPassword), member: who };
  await attemptSucceeded(ctx, attempt, key);
  if (verdict === 'disabled') return { verdict: deny('disabled in the directory', CM.clientDisabled), member: who };
  // A tenant that approves new devices (issue 30).
  const approval = await deviceApproval(ctx, member, standardClientDevice(m));
  if (approval === 'waiting') return { verdict: deny('the device waits for approval', CM.clientAwaitingApproval), member: who };
  if (approval === 'refused') return { verdict: deny('the device was refused', CM.clientDeviceRefused), member: who };
  return { verdict: ACCEPT, member: who };
}

/** `name@sign` of the member's tenant, or the phone it bound for login (with or without its country code). */
export function namesMember(username: string, member: { router_key: string; sign: string; phone: string | null }): boolean {
  const login = username.trim().toLowerCase();
  if (login === `${member.router_key}@${member.sign.toLowerCase()}`) return true;
  const phone = member.phone?.replace(/[\s-]/g, '') ?? '';
  const given = login.replace(/[\s-]/g, '');
  return phone.length >= 5 && (given === phone || given.replace(/^\+?86/, '') === phone);
}

/**
 * The member's failure count (gateway/auth.ts's limits): the key the HubLink app's hello counts under,
 * so a standard client, the app and the self-service page share one count per member.
 */
export const memberLimitKey = (member: { router_key: string; sign: string }) => `a:${member.router_key}@${member.sign.toLowerCase()}`;

/** The person's password: the member's own, or for a member of the tenant's directory its directory password. */
export async function passwordVerdict(ctx: Ctx, member: { id: number; tenant_id: number; source: string; secret_hash: string }, password: string): Promise<DirectoryVerdict> {
  if (member.source === LDAP_MEMBER_SOURCE) return directorySignIn(ctx, member, password);
  return (await verifyPassword(password, member.secret_hash)) ? 'ok' : 'wrong';
}
