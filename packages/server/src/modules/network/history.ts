import {
  CURRENT_VERSION,
  DEFAULT_ROUTE,
  editCenterGateway as editCenterGatewayEndpoint,
  editCenterLinkGateway as editCenterLinkGatewayEndpoint,
  editIpPool as editIpPoolEndpoint,
  editNetwork as editNetworkEndpoint,
  editPrefix as editPrefixEndpoint,
  editRouting as editRoutingEndpoint,
  enableCenterLink as enableCenterLinkEndpoint,
  fmt,
  M,
  ROUTING_LINE,
  ROUTING_TYPE,
  setCenterLink as setCenterLinkEndpoint,
  setCiphers as setCiphersEndpoint,
  setDefaultRoute as setDefaultRouteEndpoint,
  setDns as setDnsEndpoint,
  setFixedPort as setFixedPortEndpoint,
  setMemberOv as setMemberOvEndpoint,
  setNetworkFr as setNetworkFrEndpoint,
  setPointLink as setPointLinkEndpoint,
  setQuagga as setQuaggaEndpoint,
  setSoftwareMode as setSoftwareModeEndpoint,
  type ChangeEffect,
  type HistoryWho,
  type NetworkSnapshot,
  type NetworkVersionItem,
  type SnapshotMember,
  type VersionDiff,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { ensureNetworkAllowed } from '../../core/networks';
import { offsetOf } from '../../core/paging';
import { lockTenant } from '../../core/tenantLock';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { diffSnapshots, firstDifference, textOf } from './historyDiff';
import { recordVersion, snapshotOf, versionBaseline, whoText, withoutRecording } from './historyRecord';
import * as pop from './pop';
import * as segments from './segments';
import * as networks from './service';
import * as settings from './settings';
import { callersNetwork } from '../../domain/networks';

/*
 * Network configuration history (issue 18): the versions historyRecord.ts writes, listed, shown,
 * compared, and rolled back. A rollback restores a version through the services the network detail's
 * dialogs call, each input parsed by its endpoint's own schema, all in one transaction: a rule that no
 * longer allows the version (the quota, a member deleted since, a POP resource, any check) refuses it
 * with that rule's reason and nothing changes. Its result is one new version, "回滚到版本 N".
 */

/** The tenant's network by number (403 outside the role's list, 204 when none). */
async function networkIdOf(db: Db, actor: Actor, networkNumber: string): Promise<number> {
  return (await callersNetwork(db, actor, networkNumber, ['id'])).id;
}

const VERSION_COLUMNS = ['version', 'create_time', 'who_kind', 'who_name', 'summary', 'effect'] as const;

function itemOf(ctx: Ctx, r: { version: number; create_time: number | string; who_kind: string; who_name: string; summary: string; effect: string | null }): NetworkVersionItem {
  return {
    version: r.version,
    create_time: formatTime(Number(r.create_time), ctx.config.timezone),
    who_kind: r.who_kind as HistoryWho,
    who: whoText(r.who_kind, r.who_name),
    summary: r.summary,
    effect: r.effect ? (JSON.parse(r.effect) as ChangeEffect) : null,
  };
}

/** A network's versions, newest first. */
export async function list(ctx: Ctx, actor: Actor, networkNumber: string, page: number, limit: number): Promise<{ rows: NetworkVersionItem[]; count: number }> {
  const networkId = await networkIdOf(ctx.db, actor, networkNumber);
  const scoped = ctx.db.selectFrom('network_version').where('network_id', '=', networkId).where('tenant_id', '=', actor.tenantId);
  const [rows, total] = await Promise.all([
    scoped.select(VERSION_COLUMNS).orderBy('version', 'desc').limit(limit).offset(offsetOf(page, limit)).execute(),
    scoped.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => itemOf(ctx, r)), count: Number(total.n) };
}

async function versionRow(db: Db, tenantId: number, networkId: number, version: number) {
  const row = await db
    .selectFrom('network_version')
    .select([...VERSION_COLUMNS, 'snapshot'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) throw notFound(M.histVersionNotFound);
  return row;
}

export async function get(ctx: Ctx, actor: Actor, networkNumber: string, version: number): Promise<NetworkVersionItem & { snapshot: NetworkSnapshot }> {
  const networkId = await networkIdOf(ctx.db, actor, networkNumber);
  const row = await versionRow(ctx.db, actor.tenantId, networkId, version);
  return { ...itemOf(ctx, row), snapshot: JSON.parse(row.snapshot) as NetworkSnapshot };
}

/** A version's snapshot, or the network as it is now for version 0. */
async function snapshotAt(db: Db, tenantId: number, networkId: number, version: number): Promise<NetworkSnapshot | null> {
  if (version === CURRENT_VERSION) return snapshotOf(db, tenantId, networkId);
  return JSON.parse((await versionRow(db, tenantId, networkId, version)).snapshot) as NetworkSnapshot;
}

export async function compare(ctx: Ctx, actor: Actor, networkNumber: string, a: number, b: number): Promise<VersionDiff> {
  const networkId = await networkIdOf(ctx.db, actor, networkNumber);
  const [sa, sb] = await Promise.all([snapshotAt(ctx.db, actor.tenantId, networkId, a), snapshotAt(ctx.db, actor.tenantId, networkId, b)]);
  return diffSnapshots(sa, sb, { a, b });
}

// ---- rollback ----

/**
 * A handle on the rollback's transaction that the services can open "their" transaction on: they
 * run inside the rollback's, so a refusal anywhere rolls back every step. Kysely's methods read
 * private fields, so each is bound to the transaction itself.
 */
export function joined(trx: Db): Db {
  const handle: Db = new Proxy(trx, {
    get(target, prop) {
      if (prop === 'transaction') return () => ({ execute: <T>(fn: (t: Db) => Promise<T>) => fn(handle) });
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return handle;
}

/** Parses a service's input with its endpoint's schema: the same validation as the dialog's call. */
function input<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw invalid(r.error.issues[0]?.message ?? M.validationFailed);
  return r.data;
}

const same = (a: unknown, b: unknown) => textOf(a) === textOf(b);
const key = (name: string) => name.toLowerCase();

/** Runs one step of a restore; `key` names the part as the comparison's rows do (network.dns, member.<name>.quagga), so a caller can say where a refusal came from. */
export type RestoreStep = (key: string, fn: () => Promise<unknown>) => Promise<unknown>;
const direct: RestoreStep = (_key, fn) => fn();

/** Restores `target` on the network step by step, each step only where the network differs from it. */
export async function restore(c: Ctx, actor: Actor, networkNumber: string, networkId: number, target: NetworkSnapshot, step: RestoreStep = direct): Promise<void> {
  const now = async () => (await snapshotOf(c.db, actor.tenantId, networkId))!;
  let cur = await now();

  // Name and membership (positions) through the manage-members save.
  const names = (s: NetworkSnapshot, type: string) => s.members.filter((m) => m.member_type === type).map((m) => key(m.router_name));
  const membership = (s: NetworkSnapshot) => `${names(s, 'center').sort().join(',')}|${names(s, 'point').sort().join(',')}`;
  if (cur.network_name !== target.network_name || membership(cur) !== membership(target)) {
    const kept = (type: string) => target.members.filter((m) => m.member_type === type).map((m) => m.router_name);
    await step('network.members', () =>
      networks.edit(c, actor, input(editNetworkEndpoint.body, { network_number: networkNumber, network_name: target.network_name, center: kept('center'), point: kept('point') })),
    );
    cur = await now();
  }

  // Route prefixes go first and come back last: a segment or pool of the target may lie where a
  // prefix of the network is now (and the other way round), and neither may be saved over the other.
  const prefixesDiffer = !same(cur.prefixes, target.prefixes);
  if (prefixesDiffer && cur.prefixes.length > 0) await step('network.prefixes', () => segments.editPrefix(c, actor, networkNumber, []));

  // Line main/backup.
  const main = (s: NetworkSnapshot) => s.members.find((m) => m.member_type === 'center' && m.routing === ROUTING_LINE.main)?.router_name ?? '';
  if (cur.routing_type !== target.routing_type || (target.routing_type === ROUTING_TYPE.mainBackup && (key(main(cur)) !== key(main(target)) || key(cur.routing_secondary) !== key(target.routing_secondary)))) {
    const body = target.routing_type === ROUTING_TYPE.mainBackup ? { main_router: main(target), secondary_router: target.routing_secondary } : {};
    await step('network.routing_type', () => settings.editRouting(c, actor, input(editRoutingEndpoint.body, { network_number: networkNumber, type: target.routing_type, ...body })));
  }

  if (!same(cur.dns, target.dns)) await step('network.dns', () => settings.setDns(c, actor, networkNumber, input(setDnsEndpoint.body, { network_number: networkNumber, dns: target.dns }).dns));
  if (cur.ncp_ciphers !== target.ncp_ciphers) await step('network.ncp_ciphers', () => settings.setCiphers(c, actor, networkNumber, input(setCiphersEndpoint.body, { network_number: networkNumber, ncp_ciphers: target.ncp_ciphers }).ncp_ciphers));

  // Pools, then the POP resource that needs them.
  if (!same(cur.ip_pool, target.ip_pool)) {
    await step('network.ip_pool', () => pop.editIpPool(c, actor, input(editIpPoolEndpoint.body, { network_number: networkNumber, ...(target.ip_pool as object) })));
  }
  if (cur.network_fr_id !== target.network_fr_id || cur.mode !== target.mode) {
    const frId = target.network_fr_id;
    await step('network.network_fr_id', async () => {
      if (frId === null) throw invalid(fmt(M.histCannotRestore, { label: M.histFieldFr }));
      await pop.setFr(c, actor, input(setNetworkFrEndpoint.body, { network_number: networkNumber, network_fr_id: frId, mode: target.mode }));
    });
  }

  // Each member's settings. Advertisers that change first stop advertising, so that two members
  // may swap their priorities (no two members advertise with one).
  cur = await now();
  let byName = new Map(cur.members.map((m) => [key(m.router_name), m]));
  for (const t of target.members) {
    const m = byName.get(key(t.router_name));
    if (!m || m.default_route !== DEFAULT_ROUTE.advertise || (t.default_route === DEFAULT_ROUTE.advertise && t.metric === m.metric)) continue;
    const model = t.default_route === DEFAULT_ROUTE.advertise ? DEFAULT_ROUTE.off : t.default_route;
    await step(`member.${t.router_name}.default_route`, () => settings.setDefaultRoute(c, actor, input(setDefaultRouteEndpoint.body, { network_number: networkNumber, router_name: m.router_name, model })));
  }
  cur = await now();
  byName = new Map(cur.members.map((m) => [key(m.router_name), m]));
  for (const t of target.members) {
    const m = byName.get(key(t.router_name));
    if (!m) continue;
    await restoreMember(c, actor, networkNumber, m, t, step);
  }

  // Segments and links.
  if (!same(cur.interconnect_network, target.interconnect_network)) {
    const s = target.interconnect_network as { gateway: string; mask: number } | null;
    await step('network.interconnect_network', async () => {
      if (!s) throw invalid(fmt(M.histCannotRestore, { label: M.histFieldInterconnectNetwork }));
      const b = input(editCenterLinkGatewayEndpoint.body, { network_number: networkNumber, gateway: s.gateway, mask: s.mask });
      await segments.editInterconnectSegment(c, actor, networkNumber, { gateway: b.gateway, mask: b.mask });
    });
  }
  if (cur.interconnect !== target.interconnect) await step('network.interconnect', () => segments.enableInterconnect(c, actor, networkNumber, input(enableCenterLinkEndpoint.body, { network_number: networkNumber, enable: target.interconnect }).enable));
  if (cur.center_link !== target.center_link || !same(cur.center_link_network, target.center_link_network)) {
    const link = (target.center_link_network ?? {}) as Record<string, unknown>;
    // Unset parts are stored as '' and 0; the call takes them as absent (0 is no port).
    const given = (v: unknown) => (v === '' || v === 0 ? undefined : v);
    const body =
      target.center_link === 1
        ? { enable: 1, ...link, gateway: given(link.gateway), mask: link.gateway ? link.mask : undefined, public_ip: given(link.public_ip), public_port: given(link.public_port), static_port: given(link.static_port) }
        : { enable: 0 };
    await step('network.center_link', () => segments.setCenterLink(c, actor, input(setCenterLinkEndpoint.body, { network_number: networkNumber, ...body })));
  }
  if (prefixesDiffer && target.prefixes.length > 0) {
    const rows = target.prefixes.map((p) => ({ ...p, ge: p.ge ?? undefined, le: p.le ?? undefined }));
    await step('network.prefixes', () => segments.editPrefix(c, actor, networkNumber, input(editPrefixEndpoint.body, { network_number: networkNumber, prefix: rows }).prefix ?? []));
  }
  const links = (s: NetworkSnapshot) => s.members.filter((m) => m.member_type === 'point').map((m) => `${key(m.router_name)}:${(m.link_centers ?? []).map(key).join(',')}`).sort().join('|');
  if (links(cur) !== links(target)) {
    const centers = target.members.filter((m) => m.member_type === 'center').map((m) => m.router_name);
    const config: Record<string, string[]> = {};
    for (const p of target.members.filter((m) => m.member_type === 'point')) config[p.router_name] = p.link_centers ?? centers;
    await step('network.links', () => segments.setPointLinks(c, actor, networkNumber, input(setPointLinkEndpoint.body, { network_number: networkNumber, link_config: config }).link_config ?? {}));
  }
}

async function restoreMember(c: Ctx, actor: Actor, networkNumber: string, m: SnapshotMember, t: SnapshotMember, step: RestoreStep): Promise<void> {
  const member = { network_number: networkNumber, router_name: m.router_name };
  const at = (field: string) => `member.${t.router_name}.${field}`;
  if (m.default_route !== t.default_route || (t.default_route === DEFAULT_ROUTE.advertise && m.metric !== t.metric)) {
    await step(at('default_route'), () => settings.setDefaultRoute(c, actor, input(setDefaultRouteEndpoint.body, { ...member, model: t.default_route, metric: t.metric })));
  }
  if (m.mode !== t.mode) await step(at('mode'), () => settings.setDialMode(c, actor, networkNumber, m.router_name, input(setSoftwareModeEndpoint.body, { ...member, mode: t.mode }).mode));
  if (m.quagga !== t.quagga) await step(at('quagga'), () => settings.setQuagga(c, actor, networkNumber, m.router_name, input(setQuaggaEndpoint.body, { ...member, enable: t.quagga }).enable));
  if (m.ov_main !== t.ov_main || m.ov_backup !== t.ov_backup) {
    await step(at('ov_main'), () => pop.setMemberOv(c, actor, input(setMemberOvEndpoint.body, { ...member, ov_id_main: t.ov_main, ov_id_backup: t.ov_backup })));
  }
  if (t.member_type !== 'center') return;
  const gw = t.gateway as { router: { gateway: string; mask: number } | null; software: { gateway: string; mask: number } | null };
  if (!same(m.gateway, t.gateway)) {
    await step(at('gateway'), async () => {
      if (!gw.router) throw invalid(fmt(M.histCannotRestore, { label: `${M.histFieldMember} ${m.router_name} · ${M.histFieldGateway}` }));
      await segments.editCenterGateway(c, actor, input(editCenterGatewayEndpoint.body, { ...member, router_network: gw.router, software_network: gw.software }));
    });
  }
  if (!same(m.fixed_port, t.fixed_port)) {
    const fp = t.fixed_port as { router: object | null; software: object | null };
    await step(at('fixed_port'), () => segments.setFixedPort(c, actor, input(setFixedPortEndpoint.body, { ...member, router_service: fp.router, software_service: fp.software })));
  }
}

/**
 * Restores a version (see restore); refused with the reason, changing nothing, when any rule no
 * longer allows it or the network would not end up as the version was. Returns the new version.
 */
export async function rollback(ctx: Ctx, actor: Actor, networkNumber: string, version: number): Promise<number> {
  ensureNetworkAllowed(actor, networkNumber);
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const networkId = await networkIdOf(trx, actor, networkNumber);
    const target = JSON.parse((await versionRow(trx, actor.tenantId, networkId, version)).snapshot) as NetworkSnapshot;
    await versionBaseline(trx, actor.tenantId, networkId);
    if (firstDifference((await snapshotOf(trx, actor.tenantId, networkId))!, target) === null) throw invalid(fmt(M.histRollbackSame, { n: version }));
    const handle = joined(trx);
    try {
      await withoutRecording(handle, async () => {
        await restore({ ...ctx, db: handle }, actor, networkNumber, networkId, target);
        const left = firstDifference((await snapshotOf(trx, actor.tenantId, networkId))!, target);
        if (left) throw invalid(fmt(M.histRolledBackNotEqual, { label: left.label }));
      });
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(e.code, fmt(M.histRollbackRefused, { n: version, reason: e.message }), e.data);
      throw e;
    }
    const written = await recordVersion(trx, actor, actor.tenantId, networkId, fmt(M.histRollbackTo, { n: version }));
    return written ?? version;
  });
}
