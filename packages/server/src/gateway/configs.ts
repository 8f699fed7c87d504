import type { NetworkConfigPayload } from '@hublink/contract';
import { syncNetworkCertificates } from '../compiler/certificates';
import { deviceFilesOf } from '../compiler/pkiStore';
import type { Ctx } from '../core/context';

export interface HeldConfig {
  network_id: number;
  network_number: string;
  payload: NetworkConfigPayload;
}

/** The networks a member is in, by id, with their numbers (for leave messages after a network is gone). */
export async function networksOf(ctx: Ctx, tenantId: number, memberId: number): Promise<Map<number, string>> {
  const rows = await ctx.db
    .selectFrom('network_member as nm')
    .innerJoin('network as n', 'n.id', 'nm.network_id')
    .select(['n.id', 'n.network_number'])
    .where('nm.member_id', '=', memberId)
    .where('nm.tenant_id', '=', tenantId)
    .where('n.tenant_id', '=', tenantId)
    .execute();
  return new Map(rows.map((r) => [r.id, r.network_number]));
}

/**
 * The member's stored configurations (all networks, or the ones given), each with the certificate files
 * its OpenVPN files name. A network whose PKI has not caught up yet (its event still on the way) gets
 * its certificates made here, so a device never receives a config it cannot start.
 */
export async function configsOf(ctx: Ctx, tenantId: number, memberId: number, networkIds?: readonly number[]): Promise<HeldConfig[]> {
  if (networkIds && networkIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('member_config as c')
    .innerJoin('network as n', 'n.id', 'c.network_id')
    .select(['c.network_id', 'n.network_number', 'n.network_name', 'c.version', 'c.config', 'c.openvpn'])
    .where('c.tenant_id', '=', tenantId)
    .where('c.member_id', '=', memberId)
    .where('n.tenant_id', '=', tenantId)
    .$if(networkIds !== undefined, (qb) => qb.where('c.network_id', 'in', networkIds!))
    .orderBy('c.network_id')
    .execute();
  const out: HeldConfig[] = [];
  for (const r of rows) {
    let files = await deviceFilesOf(ctx.db, ctx.secretBox, tenantId, r.network_id, memberId);
    if (!files) {
      await syncNetworkCertificates(ctx, tenantId, r.network_id, new Date());
      files = await deviceFilesOf(ctx.db, ctx.secretBox, tenantId, r.network_id, memberId);
    }
    out.push({
      network_id: r.network_id,
      network_number: r.network_number,
      payload: {
        network_number: r.network_number,
        network_name: r.network_name,
        version: r.version,
        config: JSON.parse(r.config) as Record<string, unknown>,
        openvpn: JSON.parse(r.openvpn) as Record<string, string>,
        certificates: files ? { 'ca.crt': files.ca, 'member.crt': files.cert, 'member.key': files.key, ...(files.crl ? { 'crl.pem': files.crl } : {}) } : null,
      },
    });
  }
  return out;
}
