import { M, MEMBER_CERTIFICATE_FIELD, OVPN_TYPE, ROUTER_TYPE, type MemberProfiles, CM } from '@hublink/contract';
import type { Actor } from '../core/actor';
import type { Ctx } from '../core/context';
import { ApiError, notFound } from '../core/errors';
import { FileAnswer } from '../core/http';
import { ensureNetworkAllowed, mayUseNetwork } from '../core/networks';
import { lockTenant } from '../core/tenantLock';
import { signsInOnWeb } from '../domain/webSignIn';
import { syncNetworkCertificates } from './certificates';
import type { PointConfig } from './model';
import { deviceFilesOf, revokeMemberCertificate } from './pkiStore';
import { renderProfile } from './profile';
import { memberConfigOf } from './memberConfig';
import { callersNetwork } from '../domain/networks';

/*
 * Connection profiles for standard OpenVPN clients (issue 30, docs/clients.md): a software member's
 * .ovpn for one of its networks, and re-issuing its certificates, which revokes the old ones at once.
 */

/** A software member of the tenant, by name. */
async function softwareMember(ctx: Ctx, tenantId: number, routerName: string) {
  const member = await ctx.db
    .selectFrom('member')
    .select(['id', 'router_name', 'router_type', 'phone', 'source', 'secret_hash'])
    .where('tenant_id', '=', tenantId)
    .where('router_key', '=', routerName.toLowerCase())
    .executeTakeFirst();
  if (!member) throw notFound(M.memberNotFound);
  if (member.router_type !== ROUTER_TYPE.software) throw new ApiError(422, CM.profileSoftwareOnly);
  return member;
}

/** The networks a member is in (number and name), oldest first. */
export function networksOfMember(ctx: Ctx, tenantId: number, memberId: number) {
  return ctx.db
    .selectFrom('network_member as nm')
    .innerJoin('network as n', 'n.id', 'nm.network_id')
    .select(['n.network_number', 'n.network_name'])
    .where('nm.tenant_id', '=', tenantId)
    .where('n.tenant_id', '=', tenantId)
    .where('nm.member_id', '=', memberId)
    .orderBy('n.id')
    .execute();
}

/** The member's networks (those the caller's role may see), and the login its people type. */
export async function profilesOf(ctx: Ctx, actor: Actor, routerName: string): Promise<MemberProfiles> {
  const member = await softwareMember(ctx, actor.tenantId, routerName);
  const account = await ctx.db.selectFrom('account').select('sign').where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
  const rows = await networksOfMember(ctx, actor.tenantId, member.id);
  const networks = rows.filter((r) => mayUseNetwork(actor, r.network_number));
  return { login: `${member.router_name}@${account.sign}`, phone: member.phone ?? '', networks };
}

export async function profileOf(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string): Promise<FileAnswer> {
  ensureNetworkAllowed(actor, networkNumber);
  return ownProfile(ctx, actor.tenantId, networkNumber, routerName);
}

/**
 * A software member's profile in one of its tenant's networks, whoever asks (the caller has been
 * judged: an account's role above, a member's own self-service session in selfService/).
 */
export async function ownProfile(ctx: Ctx, tenantId: number, networkNumber: string, routerName: string): Promise<FileAnswer> {
  const actor: Actor = { tenantId, ramId: null, sessionId: '', role: null };
  const member = await softwareMember(ctx, actor.tenantId, routerName);
  const answer = await memberConfigOf(ctx, actor, networkNumber, member.router_name);
  const json = answer.config as unknown as PointConfig;
  const net = await callersNetwork(ctx.db, actor, networkNumber, ['id']);
  // A member whose certificate is still on its way (the network's event not handled yet) gets it here.
  const files =
    (await deviceFilesOf(ctx.db, ctx.secretBox, actor.tenantId, net.id, member.id)) ??
    ((await syncNetworkCertificates(ctx, actor.tenantId, net.id, new Date())) && (await deviceFilesOf(ctx.db, ctx.secretBox, actor.tenantId, net.id, member.id)));
  if (json.member_type !== 'point' || !files?.tlsCrypt || json.tunnels.length === 0) throw new ApiError(422, CM.profileNotReady);
  const text = renderProfile(json, { ca: files.ca, cert: files.cert, key: files.key, tlsCrypt: files.tlsCrypt }, { password: !signsInOnWeb(member), title: 'HubLink' });
  return new FileAnswer(`${member.router_name}-${networkNumber}.ovpn`, OVPN_TYPE, Buffer.from(text));
}

/**
 * Re-issues a software member's certificates in every network it is in: the ones in force are revoked
 * (each network's CRL rebuilt), new ones issued, and the member's clients at the centers disconnected
 * (gateway, member.changed 'certificate'): an old profile stops working at once.
 */
export async function reissueProfile(ctx: Ctx, actor: Actor, routerName: string): Promise<void> {
  const member = await softwareMember(ctx, actor.tenantId, routerName);
  const networks = await ctx.db.selectFrom('network_member').select('network_id').where('tenant_id', '=', actor.tenantId).where('member_id', '=', member.id).execute();
  const now = new Date();
  for (const n of networks) {
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, actor.tenantId);
      await revokeMemberCertificate(trx, ctx.secretBox, actor.tenantId, n.network_id, member.id, now);
    });
    await syncNetworkCertificates(ctx, actor.tenantId, n.network_id, now);
  }
  await ctx.events.emitAll(ctx.db, [
    ...networks.map((n) => ({ type: 'network_pki.changed' as const, tenant_id: actor.tenantId, network_id: n.network_id, member_ids: [member.id], crl: true })),
    { type: 'member.changed' as const, tenant_id: actor.tenantId, member_id: member.id, fields: [MEMBER_CERTIFICATE_FIELD] },
  ]);
}

