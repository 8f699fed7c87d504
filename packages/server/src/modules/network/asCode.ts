import {
  createNetwork,
  fmt,
  M,
  networkDocument,
  type NetworkDocument,
  type NetworkDocumentFormat,
  type NetworkDrift,
  type NetworkSnapshot,
  type PlanAnswer,
  type PreviewAnswer,
} from '@hublink/contract';
import { parseDocument as parseYaml, stringify as toYaml } from 'yaml';
import type { Actor } from '../../core/actor';
import { uncaptured } from '../../core/audit';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { authorize } from '../../core/guard';
import { ensureNetworkAllowed } from '../../core/networks';
import { preview, previewPoint, savedAs } from '../../core/preview';
import { lockTenant } from '../../core/tenantLock';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { callersNetwork } from '../../domain/networks';
import { documentOf, firstDocumentDifference, memberPaths, pathText, snapshotFromDocument, type PopNames } from './document';
import { diffSnapshots } from './historyDiff';
import { joined, restore } from './history';
import { recordVersion, snapshotOf, versionBaseline, whoText, withoutRecording } from './historyRecord';
import { popNamesOf, popsByName } from './pop';
import { onePreviewAtATime } from './preview';
import * as networks from './service';

/*
 * Networks as code (issue 36, docs/as-code.md). A document is read (YAML or JSON), checked against the
 * contract's schema and the tenant's names, turned into the snapshot the configuration history keeps,
 * and restored through the dialogs' services in one transaction (history.ts restore), as a rollback
 * is: a refusal anywhere changes nothing and names the document's path. Plan runs the same
 * transaction and rolls it back at the preview point; apply commits it as one version, marked as
 * applied, from which the network's drift is measured.
 */

// ---- reading a document ----

/** The document in `text` (YAML, of which JSON is a part), its defaults filled in; a refusal names the line or the path. */
export function readDocument(text: string): NetworkDocument {
  const parsed = parseYaml(text, { prettyErrors: false, uniqueKeys: true });
  const problem = parsed.errors[0];
  if (problem) throw invalid(fmt(M.codeDocumentUnreadable, { reason: problem.message.split('\n')[0] ?? '' }));
  const r = networkDocument.safeParse(parsed.toJS({ maxAliasCount: 100 }));
  if (!r.success) {
    const issue = r.error.issues[0]!;
    if (issue.path[0] === 'kind') throw invalid(issue.message);
    throw invalid(fmt(M.codeDocumentInvalid, { path: pathText(issue.path) || '.', reason: issue.message }));
  }
  const seen = new Set<string>();
  for (const [path, name] of [...r.data.centers.map((m, i) => [`centers[${i}].name`, m.name]), ...r.data.points.map((m, i) => [`points[${i}].name`, m.name])]) {
    if (seen.has(name!.toLowerCase())) throw invalid(fmt(M.codeDocumentInvalid, { path: path!, reason: fmt(M.codeMemberTwice, { name: name! }) }));
    seen.add(name!.toLowerCase());
  }
  return r.data;
}

const refused = (path: string, reason: string) => invalid(fmt(M.codeDocumentInvalid, { path, reason }));

/** The document's members are the tenant's, and its POP names are the tenant's resource and its areas: the target snapshot. */
async function targetOf(db: Db, tenantId: number, doc: NetworkDocument): Promise<{ target: NetworkSnapshot; names: PopNames }> {
  const named = [...doc.centers.map((m, i) => [`centers[${i}].name`, m.name] as const), ...doc.points.map((m, i) => [`points[${i}].name`, m.name] as const)];
  const found = await networks.membersByName(
    db,
    tenantId,
    named.map(([, n]) => n),
  );
  for (const [path, name] of named) if (!found.has(name.toLowerCase())) throw refused(path, fmt(M.codeMemberUnknown, { name }));
  // The tenant's spelling of each name: a document may write a name in another case.
  const spelled = (name: string) => found.get(name.toLowerCase())?.router_name ?? name;
  const spelledDoc: NetworkDocument = {
    ...doc,
    centers: doc.centers.map((m) => ({ ...m, name: spelled(m.name) })),
    points: doc.points.map((m) => ({ ...m, name: spelled(m.name) })),
  };

  let fr: { id: number; areas: { id: number; name: string }[] } | null = null;
  if (doc.pop) {
    const frs = await popsByName(db, tenantId, doc.pop.resource);
    if (frs.length === 0) throw refused('pop.resource', fmt(M.codePopUnknown, { name: doc.pop.resource }));
    if (frs.length > 1) throw refused('pop.resource', fmt(M.codePopAmbiguous, { name: doc.pop.resource }));
    fr = frs[0]!;
  }
  const target = snapshotFromDocument(spelledDoc, {
    frId: fr?.id ?? null,
    areaId(path, name) {
      if (!fr || !doc.pop) throw refused(path, M.codeAreaNeedsPop);
      const matches = fr.areas.filter((a) => a.name === name);
      if (matches.length !== 1) throw refused(path, fmt(M.codeAreaUnknown, { pop: doc.pop.resource, name }));
      return matches[0]!.id;
    },
  });
  const areaNames = new Map((fr?.areas ?? []).map((a) => [a.id, a.name]));
  return { target, names: { frName: doc.pop?.resource ?? null, areaName: (id) => areaNames.get(id) ?? null } };
}

async function namesOf(db: Db, tenantId: number, s: NetworkSnapshot): Promise<PopNames> {
  const { frName, areas } = await popNamesOf(db, tenantId, s.network_fr_id);
  return { frName, areaName: (id) => areas.get(id) ?? null };
}

// ---- export ----

export async function exportDocument(ctx: Ctx, actor: Actor, networkNumber: string, format: NetworkDocumentFormat) {
  const net = await callersNetwork(ctx.db, actor, networkNumber, ['id']);
  const snapshot = (await snapshotOf(ctx.db, actor.tenantId, net.id))!;
  const doc = documentOf(snapshot, await namesOf(ctx.db, actor.tenantId, snapshot));
  const document = format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : toYaml(doc, { lineWidth: 0 });
  return { format, file_name: `network-${networkNumber}.${format === 'json' ? 'json' : 'yaml'}`, document };
}

// ---- the transaction plan and apply share ----

/** What one part of a restore is called in the document (the restore names parts as the comparison's rows do). */
function documentPath(key: string, doc: NetworkDocument): string {
  const NETWORK: Record<string, string> = {
    'network.members': 'centers',
    'network.prefixes': 'prefixes',
    'network.routing_type': 'routing',
    'network.dns': 'dns',
    'network.ncp_ciphers': 'ciphers',
    'network.ip_pool': 'ip_pool',
    'network.network_fr_id': 'pop',
    'network.interconnect_network': 'interconnect.segment',
    'network.interconnect': 'interconnect',
    'network.center_link': 'center_link',
    'network.links': 'points',
  };
  if (NETWORK[key]) return NETWORK[key];
  const MEMBER: Record<string, string> = { default_route: 'default_route', mode: 'dial_mode', quagga: 'dynamic_routing', ov_main: 'pop_areas', gateway: 'segments', fixed_port: 'fixed_ports' };
  const dot = key.lastIndexOf('.');
  const name = key.slice('member.'.length, dot);
  return `${memberPaths(doc).get(name.toLowerCase()) ?? 'centers'}.${MEMBER[key.slice(dot + 1)] ?? key.slice(dot + 1)}`;
}

interface Applied {
  networkNumber: string;
  networkId: number;
  before: NetworkSnapshot | null;
  after: NetworkSnapshot;
}

/**
 * In `trx`: locks the tenant and makes the network (a new one when no number is given) what the document
 * says, without writing versions; for an existing network the preview's 'before' point is taken here
 * and its 'after' point is the caller's.
 */
async function makeItSo(ctx: Ctx, actor: Actor, trx: Db, networkNumber: string | undefined, doc: NetworkDocument): Promise<Applied> {
  await lockTenant(ctx, trx, actor.tenantId);
  const { target, names } = await targetOf(trx, actor.tenantId, doc);
  const handle = joined(trx);
  const c = { ...ctx, db: handle };
  const step = async (key: string, fn: () => Promise<unknown>) => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(e.code, fmt(M.codeRefused, { path: documentPath(key, doc), reason: e.message }), e.data);
      throw e;
    }
  };
  return withoutRecording(handle, async () => {
    let number = networkNumber;
    let before: NetworkSnapshot | null = null;
    if (number === undefined) {
      if (doc.type !== 'hub') throw refused('type', M.codeNewOnlyHub);
      authorize(actor, createNetwork.access);
      const kept = (type: string) => target.members.filter((m) => m.member_type === type).map((m) => m.router_name);
      number = (await step('network.members', () => networks.create(c, actor, { network_name: target.network_name, center: kept('center'), point: kept('point') }))) as string;
    }
    const networkId = (await callersNetwork(trx, actor, number, ['id'])).id;
    if (networkNumber !== undefined) {
      before = (await snapshotOf(trx, actor.tenantId, networkId))!;
      if (before.network_type !== target.network_type) throw refused('type', M.codeTypeFixed);
      await previewPoint(trx, actor.tenantId, networkId, 'before');
    }
    await restore(c, actor, number, networkId, target, step);
    const after = (await snapshotOf(trx, actor.tenantId, networkId))!;
    const left = firstDocumentDifference(documentOf(after, await namesOf(trx, actor.tenantId, after)), documentOf(target, names));
    if (left !== null) throw invalid(fmt(M.codeNotApplied, { path: left }));
    return { networkNumber: number, networkId, before, after };
  });
}

// ---- drift ----

async function driftOf(ctx: Ctx, db: Db, tenantId: number, networkId: number, current: NetworkSnapshot): Promise<NetworkDrift | null> {
  const applied = await db
    .selectFrom('network_version')
    .select(['version', 'create_time', 'who_kind', 'who_name', 'snapshot'])
    .where('tenant_id', '=', tenantId)
    .where('network_id', '=', networkId)
    .where('applied', '=', 1)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!applied) return null;
  const since = await db
    .selectFrom('network_version')
    .select(['version', 'create_time', 'who_kind', 'who_name', 'summary'])
    .where('tenant_id', '=', tenantId)
    .where('network_id', '=', networkId)
    .where('version', '>', applied.version)
    .orderBy('version')
    .execute();
  const time = (t: number | string) => formatTime(Number(t), ctx.config.timezone);
  return {
    applied_version: applied.version,
    applied_time: time(applied.create_time),
    applied_by: whoText(applied.who_kind, applied.who_name),
    changes: diffSnapshots(JSON.parse(applied.snapshot) as NetworkSnapshot, current).rows.filter((r) => r.changed),
    versions: since.map((v) => ({ version: v.version, create_time: time(v.create_time), who: whoText(v.who_kind, v.who_name), summary: v.summary })),
  };
}

export async function drift(ctx: Ctx, actor: Actor, networkNumber: string): Promise<NetworkDrift | null> {
  const net = await callersNetwork(ctx.db, actor, networkNumber, ['id']);
  return driftOf(ctx, ctx.db, actor.tenantId, net.id, (await snapshotOf(ctx.db, actor.tenantId, net.id))!);
}

// ---- plan and apply ----

/** Thrown at the end of a plan's transaction (a new network has no preview point): rolls it back. */
class Planned extends Error {}

export async function plan(ctx: Ctx, actor: Actor, networkNumber: string | undefined, text: string, ip: string): Promise<PlanAnswer> {
  if (networkNumber !== undefined) ensureNetworkAllowed(actor, networkNumber);
  const doc = readDocument(text);
  let applied: Applied | null = null;
  let driftNow: NetworkDrift | null = null;
  const work = () =>
    ctx.db.transaction().execute(async (trx) => {
      if (networkNumber !== undefined) {
        const net = await callersNetwork(trx, actor, networkNumber, ['id']);
        const current = await snapshotOf(trx, actor.tenantId, net.id);
        driftNow = await driftOf(ctx, trx, actor.tenantId, net.id, current!);
      }
      applied = await makeItSo(ctx, actor, trx, networkNumber, doc);
      if (networkNumber !== undefined) await previewPoint(trx, actor.tenantId, applied.networkId, 'after');
      throw new Planned('planned');
    });
  const effect = await onePreviewAtATime(actor.tenantId, () =>
    uncaptured(() =>
      networkNumber === undefined
        ? work().catch((e: unknown) => {
            if (!(e instanceof Planned)) throw e;
            return null;
          })
        : preview<PreviewAnswer>(ctx, 'network', { ip }, work),
    ),
  );
  const done = applied as Applied | null;
  if (!done) throw new Error('plan: the document was not applied');
  const diff = diffSnapshots(done.before, done.after);
  return {
    network_number: networkNumber ?? null,
    network_name: done.after.network_name,
    changes: diff.rows.filter((r) => r.changed),
    members: done.before ? diff.members : { added: done.after.members.map((m) => m.router_name), removed: [], changed: [] },
    effect: effect ? { members: effect.members, member_count: effect.member_count, reach: effect.reach, reach_count: effect.reach_count } : null,
    drift: driftNow,
  };
}

/** Applies the document; returns the network, the version written (null: nothing changed). */
export async function apply(ctx: Ctx, actor: Actor, networkNumber: string | undefined, text: string): Promise<{ network_number: string; version: number | null; changed: boolean }> {
  if (networkNumber !== undefined) ensureNetworkAllowed(actor, networkNumber);
  const doc = readDocument(text);
  return ctx.db.transaction().execute(async (trx) => {
    if (networkNumber !== undefined) {
      // Under the lock, as every change: two applies must not both write a network's first version.
      await lockTenant(ctx, trx, actor.tenantId);
      const net = await callersNetwork(trx, actor, networkNumber, ['id']);
      await versionBaseline(trx, actor.tenantId, net.id);
    }
    const done = await makeItSo(ctx, actor, trx, networkNumber, doc);
    if (networkNumber !== undefined) await previewPoint(trx, actor.tenantId, done.networkId, 'after');
    const version = await recordVersion(trx, actor, actor.tenantId, done.networkId, networkNumber === undefined ? undefined : M.codeAppliedSummary);
    savedAs(trx, version);
    // The version the network is left at is the applied document's: the new one, or the latest when nothing changed.
    const marked =
      version ??
      (await trx
        .selectFrom('network_version')
        .select(['version', 'applied'])
        .where('tenant_id', '=', actor.tenantId)
        .where('network_id', '=', done.networkId)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
        .then((v) => (v.applied === 1 ? null : v.version)));
    if (marked !== null) {
      await trx.updateTable('network_version').set({ applied: 1 }).where('tenant_id', '=', actor.tenantId).where('network_id', '=', done.networkId).where('version', '=', marked).execute();
    }
    return { network_number: done.networkNumber, version, changed: version !== null };
  });
}
