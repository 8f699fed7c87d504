import { DEVICE_FEATURES, type NetworkConfigPayload } from '@hublink/contract';
import { syncNetworkCertificates } from '../compiler/certificates';
import { deviceFilesOf, deviceFilesOfMembers, type DeviceFiles } from '../compiler/pkiStore';
import { TLS_CRYPT_FILE } from '../compiler/tlsCrypt';
import { chunks } from '../core/chunks';
import type { Ctx } from '../core/context';

export interface HeldConfig {
  network_id: number;
  network_number: string;
  payload: NetworkConfigPayload;
}

export interface MemberNetwork {
  id: number;
  network_number: string;
  /** 'center' | 'point'. */
  member_type: string;
  /** The version of the member's stored config; null before the network's first compile. */
  version: number | null;
}

/** The networks the member is in, with its role and its config's version (so a welcome loads only the configs a device lacks). */
export async function networksOf(ctx: Ctx, tenantId: number, memberId: number): Promise<MemberNetwork[]> {
  return ctx.db
    .selectFrom('network_member as nm')
    .innerJoin('network as n', 'n.id', 'nm.network_id')
    .leftJoin('member_config as c', (j) => j.onRef('c.network_id', '=', 'nm.network_id').onRef('c.member_id', '=', 'nm.member_id'))
    .select(['n.id', 'n.network_number', 'nm.member_type', 'c.version'])
    .where('nm.member_id', '=', memberId)
    .where('nm.tenant_id', '=', tenantId)
    .where('n.tenant_id', '=', tenantId)
    .execute();
}

/**
 * The member's stored configurations (all networks, or the ones given), each with the certificate files
 * its OpenVPN files name. A network whose PKI has not caught up yet (its event still on the way, or a
 * network made before tls-crypt keys) gets its certificates and key made here, so a device never
 * receives a config it cannot start.
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
    if (!files?.tlsCrypt) {
      await syncNetworkCertificates(ctx, tenantId, r.network_id, new Date());
      files = await deviceFilesOf(ctx.db, ctx.secretBox, tenantId, r.network_id, memberId);
    }
    out.push(heldConfig(r, files));
  }
  return out;
}

/**
 * The stored configurations of many members of one network, by member id, in two reads per 500 members
 * (a change to a network of thousands delivers to all of them at once); as configsOf otherwise.
 */
export async function networkConfigsOf(ctx: Ctx, tenantId: number, networkId: number, memberIds: number[]): Promise<Map<number, HeldConfig>> {
  const out = new Map<number, HeldConfig>();
  for (const ids of chunks(memberIds)) {
    const rows = await ctx.db
      .selectFrom('member_config as c')
      .innerJoin('network as n', 'n.id', 'c.network_id')
      .select(['c.member_id', 'c.network_id', 'n.network_number', 'n.network_name', 'c.version', 'c.config', 'c.openvpn'])
      .where('c.tenant_id', '=', tenantId)
      .where('c.network_id', '=', networkId)
      .where('c.member_id', 'in', ids)
      .where('n.tenant_id', '=', tenantId)
      .execute();
    let files = await deviceFilesOfMembers(ctx.db, ctx.secretBox, tenantId, networkId, ids);
    if (rows.some((r) => !files.get(r.member_id)?.tlsCrypt)) {
      await syncNetworkCertificates(ctx, tenantId, networkId, new Date());
      files = await deviceFilesOfMembers(ctx.db, ctx.secretBox, tenantId, networkId, ids);
    }
    for (const r of rows) out.set(r.member_id, heldConfig(r, files.get(r.member_id) ?? null));
  }
  return out;
}

interface ConfigRow {
  network_id: number;
  network_number: string;
  network_name: string;
  version: number;
  config: string;
  openvpn: string;
}

function heldConfig(r: ConfigRow, files: DeviceFiles | null): HeldConfig {
  return {
    network_id: r.network_id,
    network_number: r.network_number,
    payload: {
      network_number: r.network_number,
      network_name: r.network_name,
      version: r.version,
      config: JSON.parse(r.config) as Record<string, unknown>,
      openvpn: JSON.parse(r.openvpn) as Record<string, string>,
      certificates: files
        ? {
            'ca.crt': files.ca,
            'member.crt': files.cert,
            'member.key': files.key,
            ...(files.crl ? { 'crl.pem': files.crl } : {}),
            ...(files.tlsCrypt ? { [TLS_CRYPT_FILE]: files.tlsCrypt } : {}),
          }
        : null,
    },
  };
}

/**
 * A configuration as a device of this protocol version can run it (docs/decisions.md, "Rolling
 * upgrades and client authentication"). An agent older than client authentication (protocol 1) would
 * never answer a center's `management-client-auth` (every software client would hang until the
 * handshake timed out) nor write the `auth.txt` a software point's tunnel names (its OpenVPN would not
 * start): it gets its files without those lines, as before issue 30. The agent keeps held versions in
 * memory only, so an upgraded agent (a new process) asks for every configuration again and gets the full one.
 */
const CLIENT_AUTH_LINES = /^(management-client-auth|auth-user-pass-optional|auth-user-pass auth\.txt|auth-nocache)\r?\n/gm;

export function payloadFor(protocol: number, payload: NetworkConfigPayload): NetworkConfigPayload {
  if (protocol >= DEVICE_FEATURES.clientAuth) return payload;
  const openvpn: Record<string, string> = {};
  for (const [file, text] of Object.entries(payload.openvpn)) openvpn[file] = text.replace(CLIENT_AUTH_LINES, '');
  return { ...payload, openvpn };
}
