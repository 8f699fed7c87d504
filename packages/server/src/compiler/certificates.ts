import type { Ctx } from '../core/context';
import { lockTenant } from '../core/tenantLock';
import type { Db } from '../db/connect';
import { PKI_VALIDITY, type MemberRole } from './pki';
import {
  dueForRenewal,
  ensureMemberCertificate,
  ensureNetworkCa,
  refreshCrl,
  revokeCertificates,
  revokeMemberCertificate,
  type MemberCertificate,
  type MemberCertificateRequest,
  type RevokeTarget,
} from './pkiStore';

/**
 * Keeps each network's PKI in step with its members (docs/architecture.md, "PKI and secrets"): a CA per
 * network, a certificate in force for every member in the role of its position, and the certificates
 * of members who left revoked in the CRL.
 *
 * No lock is held across a whole sync (each write takes the tenant lock by itself, see
 * underTenantLock). What keeps a leaver from keeping a certificate is the order: a sync issues first and reads the members again afterwards, revoking whoever is gone by then;
 * a member that leaves after that read has its leaving announced by an event whose handler runs later
 * still and finds the new certificate. network.changed reaches this module in order per tenant, so two
 * syncs of one network never overlap.
 */

/**
 * Every PKI write takes the tenant lock first, as every network change does. An insert's foreign keys
 * lock the network and account rows, and a network delete cascades into the PKI's rows; in any other
 * order than the network module's (account first) the two deadlock on PostgreSQL.
 */
function underTenantLock<T>(ctx: Ctx, tenantId: number, work: (trx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, tenantId);
    return work(trx);
  });
}

/** ensureMemberCertificate under the tenant lock; null when the network was deleted meanwhile. */
function issueUnderLock(ctx: Ctx, req: MemberCertificateRequest): Promise<MemberCertificate | null> {
  return underTenantLock(ctx, req.tenantId, async (trx) => {
    const net = await trx.selectFrom('network').select('id').where('id', '=', req.networkId).where('tenant_id', '=', req.tenantId).executeTakeFirst();
    return net ? ensureMemberCertificate(trx, ctx.secretBox, req) : null;
  });
}

export const roleOf = (memberType: string): MemberRole => (memberType === 'center' ? 'server' : 'client');

interface Position {
  memberId: number;
  routerName: string;
  role: MemberRole;
}

async function positionsOf(db: Db, tenantId: number, networkId: number, memberId?: number): Promise<Map<number, Position>> {
  let q = db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['nm.member_id', 'nm.member_type', 'm.router_name'])
    .where('nm.tenant_id', '=', tenantId)
    .where('m.tenant_id', '=', tenantId)
    .where('nm.network_id', '=', networkId);
  if (memberId !== undefined) q = q.where('nm.member_id', '=', memberId);
  const rows = await q.orderBy('nm.member_id').execute();
  return new Map(rows.map((r) => [r.member_id, { memberId: r.member_id, routerName: r.router_name, role: roleOf(r.member_type) }]));
}

export interface SyncResult {
  /** Members that got a new certificate. */
  issued: number[];
  /** Serials revoked: members who left, and the old role's certificates of members who moved. */
  revoked: string[];
}

/**
 * Brings one network's certificates in line with its members at `now`; null when the tenant has no
 * such network (a deleted network's PKI went with it). Idempotent: a second call issues and revokes nothing.
 */
export async function syncNetworkCertificates(ctx: Ctx, tenantId: number, networkId: number, now: Date): Promise<SyncResult | null> {
  const { db, secretBox: box } = ctx;
  const exists = await underTenantLock(ctx, tenantId, async (trx) => {
    const net = await trx.selectFrom('network').select('network_number').where('id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirst();
    if (net) await ensureNetworkCa(trx, box, tenantId, networkId, net.network_number, now);
    return net !== undefined;
  });
  if (!exists) return null;

  const issued: number[] = [];
  for (const p of (await positionsOf(db, tenantId, networkId)).values()) {
    const cert = await issueUnderLock(ctx, { tenantId, networkId, memberId: p.memberId, commonName: p.routerName, role: p.role, now });
    if (!cert) return null;
    if (cert.issued) issued.push(p.memberId);
  }

  // Read again after issuing (see the top of the file).
  const positions = await positionsOf(db, tenantId, networkId);
  const inForce = await db
    .selectFrom('member_certificate')
    .select(['member_id', 'role'])
    .distinct()
    .where('tenant_id', '=', tenantId)
    .where('network_id', '=', networkId)
    .where('revoked_at', 'is', null)
    .execute();
  const targets = new Map<number, RevokeTarget>();
  for (const c of inForce) {
    const p = positions.get(c.member_id);
    if (!p) targets.set(c.member_id, { memberId: c.member_id });
    else if (p.role !== c.role) targets.set(c.member_id, { memberId: c.member_id, exceptRole: p.role });
  }
  const revoked = targets.size > 0 ? (await underTenantLock(ctx, tenantId, (trx) => revokeCertificates(trx, box, tenantId, networkId, [...targets.values()], now))).serials : [];
  return { issued, revoked };
}

/** A deleted member's certificates in the networks it was in (a network deleted meanwhile took them along). */
export async function revokeDeletedMember(ctx: Ctx, tenantId: number, memberId: number, networkIds: readonly number[], now: Date): Promise<string[]> {
  const serials: string[] = [];
  for (const networkId of networkIds) {
    const revocation = await underTenantLock(ctx, tenantId, (trx) => revokeMemberCertificate(trx, ctx.secretBox, tenantId, networkId, memberId, now));
    serials.push(...revocation.serials);
  }
  return serials;
}

export interface RenewalResult {
  /** Certificates reissued (the new serials). */
  renewed: string[];
  /** Who got them: the gateway sends those members their new files. */
  renewedMembers: { tenantId: number; networkId: number; memberId: number }[];
  /** Networks whose CRL was rebuilt. */
  crls: number[];
  /** What failed, by network; the rest went on. */
  failures: { networkId: number; error: string }[];
}

/**
 * The renewal job's work at `now`: a new certificate for every member whose newest one ends within the
 * renewal window (in the role and name of its position now; a member no longer in the network is left
 * to its leaving's revocation), and a new CRL for every network whose CRL nears its next update.
 * The old certificate stays in force until it ends, so a device keeps working until it has its new
 * configuration.
 */
export async function renewCertificates(ctx: Ctx, now: Date): Promise<RenewalResult> {
  const { db, secretBox: box } = ctx;
  const due = await dueForRenewal(db, now);
  const result: RenewalResult = { renewed: [], renewedMembers: [], crls: [], failures: [] };
  const attempt = async (networkId: number, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      result.failures.push({ networkId, error: err instanceof Error ? err.message : String(err) });
    }
  };

  for (const c of due.certificates) {
    await attempt(c.networkId, async () => {
      const p = (await positionsOf(db, c.tenantId, c.networkId, c.memberId)).get(c.memberId);
      if (!p) return;
      const cert = await issueUnderLock(ctx, {
        tenantId: c.tenantId,
        networkId: c.networkId,
        memberId: c.memberId,
        commonName: p.routerName,
        role: p.role,
        now,
        windowDays: PKI_VALIDITY.renewalWindowDays,
      });
      if (!cert?.issued) return;
      // The member may have left or moved while this ran; then the new certificate goes at once.
      const after = (await positionsOf(db, c.tenantId, c.networkId, c.memberId)).get(c.memberId);
      if (after?.role === p.role) {
        result.renewed.push(cert.serial);
        result.renewedMembers.push({ tenantId: c.tenantId, networkId: c.networkId, memberId: c.memberId });
      }
      else await underTenantLock(ctx, c.tenantId, (trx) => revokeCertificates(trx, box, c.tenantId, c.networkId, [{ memberId: c.memberId, serial: cert.serial }], now));
    });
  }
  for (const n of due.crls) {
    await attempt(n.networkId, async () => {
      if ((await underTenantLock(ctx, n.tenantId, (trx) => refreshCrl(trx, box, n.tenantId, n.networkId, now))) !== null) result.crls.push(n.networkId);
    });
  }
  return result;
}
