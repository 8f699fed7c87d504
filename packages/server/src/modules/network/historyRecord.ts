import { fmt, M, ROUTING_LINE, ROUTING_TYPE, type DomainEvent, type HistoryWho, type NetworkSnapshot } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { firstDifference, summaryOf } from './historyDiff';
import { centerLinkFrom, interconnectFrom, linkCentersFrom, memberFixedPort, memberGateway } from './segmentsData';

/*
 * Recording network versions (issue 18). Every service that changes a network's settings or
 * membership calls recordVersion in its transaction after the change (and versionBaseline before it):
 * the snapshot is read back from the rows, and a version is written only when it differs from the
 * latest one, so a no-op leaves none. The callers hold the tenant lock, which numbers the versions in
 * order. A rollback runs the services on a handle marked quiet and writes one version at its end.
 */

const quiet = new WeakSet<object>();

/** Runs `fn` with the services' own recording off on this handle (the rollback writes its one version). */
export async function withoutRecording<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  quiet.add(db);
  try {
    return await fn();
  } finally {
    quiet.delete(db);
  }
}

/** The network's settings and membership as they are in the database, null when there is no such network. */
export async function snapshotOf(db: Db, tenantId: number, networkId: number): Promise<NetworkSnapshot | null> {
  const net = await db.selectFrom('network').selectAll().where('id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!net) return null;
  const [members, prefixes] = await Promise.all([
    db
      .selectFrom('network_member as nm')
      .innerJoin('member as m', 'm.id', 'nm.member_id')
      .select(['nm.id', 'nm.member_id', 'nm.member_type', 'nm.routing', 'nm.default_route', 'nm.metric', 'nm.quagga', 'nm.mode', 'nm.ov_main', 'nm.ov_backup', 'nm.gateway', 'nm.fixed_port', 'nm.link_centers', 'm.router_name'])
      .where('nm.network_id', '=', networkId)
      .where('nm.tenant_id', '=', tenantId)
      .execute(),
    db
      .selectFrom('network_prefix')
      .select(['ip', 'mask', 'name', 'permission', 'ge', 'le'])
      .where('network_id', '=', networkId)
      .where('tenant_id', '=', tenantId)
      .orderBy('position')
      .execute(),
  ]);
  members.sort((a, b) => (a.member_type === b.member_type ? a.id - b.id : a.member_type === 'center' ? -1 : 1));
  const names = new Map(members.map((m) => [m.member_id, m.router_name]));
  const secondary = net.routing_type === ROUTING_TYPE.mainBackup && net.routing_secondary_id !== null ? (names.get(net.routing_secondary_id) ?? '') : '';
  return {
    network_name: net.network_name,
    network_type: net.network_type,
    routing_type: net.routing_type,
    routing_secondary: secondary,
    dns: JSON.parse(net.dns) as string[],
    ncp_ciphers: net.ncp_ciphers,
    mode: net.mode,
    network_fr_id: net.network_fr_id,
    ip_pool: JSON.parse(net.ip_pool) as unknown,
    center_link: net.center_link,
    center_link_network: net.center_link ? centerLinkFrom(net.center_link_network) : null,
    interconnect: net.interconnect,
    interconnect_network: interconnectFrom(net.interconnect_network),
    prefixes: prefixes.map((p) => ({ ...p, ge: p.ge ?? null, le: p.le ?? null })),
    members: members.map((m) => {
      const chosen = m.member_type === 'point' ? linkCentersFrom(m.link_centers) : null;
      const linked = chosen ? chosen.map((id) => names.get(id)).filter((n): n is string => n !== undefined) : [];
      return {
        router_name: m.router_name,
        member_type: m.member_type,
        routing: m.member_type === 'center' ? m.routing : ROUTING_LINE.main,
        default_route: m.default_route,
        metric: m.metric,
        quagga: m.quagga,
        mode: m.mode,
        ov_main: m.ov_main,
        ov_backup: m.ov_backup,
        gateway: memberGateway(m.gateway),
        fixed_port: memberFixedPort(m.fixed_port),
        link_centers: linked.length > 0 ? linked : null,
      };
    }),
  };
}

interface Who {
  who_kind: HistoryWho;
  who_name: string;
  ram_id: number | null;
  api_token_id: number | null;
}

/** Who made a change: null is the system (an event handler, an operator command). */
async function whoOf(db: Db, actor: Actor | null): Promise<Who> {
  if (!actor) return { who_kind: 'system', who_name: '', ram_id: null, api_token_id: null };
  if (actor.apiTokenId !== undefined) return { who_kind: 'token', who_name: actor.apiTokenName || `#${actor.apiTokenId}`, ram_id: actor.ramId, api_token_id: actor.apiTokenId };
  if (actor.ramId !== null) {
    const ram = await db.selectFrom('ram_account').select('username').where('id', '=', actor.ramId).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    return { who_kind: 'ram', who_name: ram?.username ?? '', ram_id: actor.ramId, api_token_id: null };
  }
  const main = await db.selectFrom('account').select('username').where('id', '=', actor.tenantId).executeTakeFirst();
  return { who_kind: 'main', who_name: main?.username ?? '', ram_id: null, api_token_id: null };
}

/** The words a version's author is shown with. */
export function whoText(kind: string, name: string): string {
  if (kind === 'main') return fmt(M.histWhoMain, { name });
  if (kind === 'ram') return fmt(M.histWhoRam, { name });
  if (kind === 'token') return fmt(M.histWhoToken, { name });
  return M.histWhoSystem;
}

async function latestOf(db: Db, tenantId: number, networkId: number) {
  return db
    .selectFrom('network_version')
    .select(['version', 'snapshot'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function insertVersion(db: Db, tenantId: number, networkId: number, version: number, who: Who, summary: string, snapshot: NetworkSnapshot) {
  await db
    .insertInto('network_version')
    .values({ tenant_id: tenantId, network_id: networkId, version, ...who, summary, snapshot: JSON.stringify(snapshot), create_time: Date.now() })
    .execute();
}

/**
 * Before a change: a network that has no version yet (made before history was kept) gets version 1,
 * its configuration as it is, so the change that follows can be compared with it and rolled back.
 */
export async function versionBaseline(db: Db, tenantId: number, networkId: number): Promise<void> {
  if (quiet.has(db)) return;
  if (await latestOf(db, tenantId, networkId)) return;
  const snapshot = await snapshotOf(db, tenantId, networkId);
  if (snapshot) await insertVersion(db, tenantId, networkId, 1, await whoOf(db, null), M.histBaseline, snapshot);
}

/**
 * After a change, in its transaction: a new version when the network differs from its latest one
 * (setting for setting); returns its number, or null when nothing was written.
 */
export async function recordVersion(db: Db, actor: Actor | null, tenantId: number, networkId: number, summary?: string): Promise<number | null> {
  if (quiet.has(db)) return null;
  const snapshot = await snapshotOf(db, tenantId, networkId);
  if (!snapshot) return null;
  const latest = await latestOf(db, tenantId, networkId);
  const before = latest ? (JSON.parse(latest.snapshot) as NetworkSnapshot) : null;
  if (before && firstDifference(before, snapshot) === null) return null;
  const version = (latest?.version ?? 0) + 1;
  await insertVersion(db, tenantId, networkId, version, await whoOf(db, actor), summary ?? summaryOf(before, snapshot), snapshot);
  return version;
}

/**
 * `member.deleted`: a deleted member left its networks by cascade, in a transaction of the router module
 * (or of a directory sync), which does not write networks' versions. Each network it was in gets its
 * version here, by the system (the audit trail names who deleted it); a network without history yet
 * gets none (its first change will write the baseline). Idempotent: a redelivery finds no difference.
 */
export async function recordMemberDeleted(event: DomainEvent<'member.deleted'>, ctx: Ctx): Promise<void> {
  for (const networkId of event.network_ids) {
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, event.tenant_id);
      if (await latestOf(trx, event.tenant_id, networkId)) await recordVersion(trx, null, event.tenant_id, networkId);
    });
  }
}
