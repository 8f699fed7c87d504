import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Ctx } from '../core/context';
import { lockTenant } from '../core/tenantLock';
import type { Db } from '../db/connect';
import { canonicalJson } from './canonical';
import { CompileMemo, compileNetwork } from './compile';
import { loadNetwork } from './load';
import type { CompiledNetwork, MemberConfig } from './model';

/*
 * Member configuration versions (table member_config, migration 0017). After any change of a network
 * the whole network is compiled again, and each member's result is compared by hash with what is
 * stored: only a member whose configuration really changed gets version + 1, a new member starts at 1,
 * and the rows of members who left go.
 */

export interface StoredForm {
  /** sha256 (hex) of `config` and `openvpn`. */
  hash: string;
  config: string;
  openvpn: string;
}

/** The stored texts of a member's result and their hash; JSON.stringify's text is canonical here since the compiler fixes every key order. */
export function storedForm(m: MemberConfig): StoredForm {
  const known = forms.get(m);
  if (known) return known;
  const config = canonicalJson(m.json);
  const openvpn = canonicalJson(m.openvpn);
  const form = { hash: createHash('sha256').update(config).update('\n').update(openvpn).digest('hex'), config, openvpn };
  forms.set(m, form);
  return form;
}

/** A compiled member is never changed after the fact, so its stored form is worked out once (a memo hands the same object back). */
const forms = new WeakMap<MemberConfig, StoredForm>();

export interface ConfigDiff {
  /** Members new to the network, and members whose hash changed, by router_name in the network's order. */
  added: string[];
  changed: string[];
  /** Names that had a stored hash and are gone. */
  removed: string[];
  forms: Map<string, StoredForm>;
}

/** What changed between stored hashes (by router_name) and a new compile. */
export function diffConfigs(previous: ReadonlyMap<string, string>, compiled: CompiledNetwork): ConfigDiff {
  const forms = new Map<string, StoredForm>();
  const added: string[] = [];
  const changed: string[] = [];
  for (const m of compiled.members) {
    const form = storedForm(m);
    forms.set(m.router_name, form);
    const before = previous.get(m.router_name);
    if (before === undefined) added.push(m.router_name);
    else if (before !== form.hash) changed.push(m.router_name);
  }
  const removed = [...previous.keys()].filter((name) => !forms.has(name));
  return { added, changed, removed, forms };
}

/**
 * The last compile of the networks recompiled most recently in this process, so a change of one member
 * rebuilds little; a memo only ever saves work (its keys hold everything a result was built from).
 */
const memos = new Map<string, CompileMemo>();
const MEMOS_MAX = 16;

function memoOf(tenantId: number, networkId: number): CompileMemo {
  const key = `${tenantId}:${networkId}`;
  const memo = memos.get(key) ?? new CompileMemo();
  memos.delete(key);
  memos.set(key, memo);
  if (memos.size > MEMOS_MAX) memos.delete(memos.keys().next().value!);
  return memo;
}

/**
 * Compiles a network with its memo: a change's compile before and after it (a preview, a save keeping
 * its effect) reuses what the last recompile built, and the recompile after the save reuses theirs.
 */
export function compileRemembered(tenantId: number, networkId: number, input: Parameters<typeof compileNetwork>[0]): CompiledNetwork {
  return compileNetwork(input, memoOf(tenantId, networkId));
}

/** Rows per insert: well under the bound parameters SQLite and PostgreSQL allow in one statement. */
const INSERT_BATCH = 200;

/**
 * Stores new versions of existing rows in one statement: one update a member was 1,000 round trips for
 * a network of 1,000 on PostgreSQL (127 ms of its 0.4–0.8 s recompile). Both databases take an update
 * from a list of values (SQLite since 3.33); the casts give PostgreSQL the values' types.
 */
async function updateVersions(trx: Db, tenantId: number, rows: ({ id: number; version: number } & StoredForm)[], now: number): Promise<void> {
  const values = sql.join(rows.map((r) => sql`(cast(${r.id} as integer), cast(${r.version} as integer), ${r.hash}, ${r.config}, ${r.openvpn})`));
  await sql`with v (id, version, hash, config, openvpn) as (values ${values})
    update member_config set version = v.version, hash = v.hash, config = v.config, openvpn = v.openvpn, update_time = ${now}
    from v where member_config.id = v.id and member_config.tenant_id = ${tenantId}`.execute(trx);
}

export interface RecompileResult {
  /** router_names whose row was inserted or got a new version. */
  added: string[];
  changed: string[];
  removedMemberIds: number[];
  /** The ids of `added` and `changed`. */
  storedMemberIds: number[];
  /** '' when the network is gone. */
  networkNumber: string;
}

/** Called in the recompile's transaction when something changed (the compiler module emits its event from it). */
export type OnStored = (trx: Db, result: RecompileResult) => Promise<void>;

/**
 * Compiles a network of a tenant and stores what changed, in one transaction (a network that is gone
 * leaves no rows). Idempotent: running it twice on the same rows changes nothing the second time.
 * It takes the tenant lock first, as every network change does: its writes lock member_config rows
 * that a network's delete cascades into, and in another order the two deadlock on PostgreSQL.
 */
export async function recompileNetwork(ctx: Ctx, tenantId: number, networkId: number, now = Date.now(), onStored?: OnStored): Promise<RecompileResult> {
  // Compiled once before the transaction, so the compile inside it (the one that counts) finds its
  // results in the memo and their stored forms made: on SQLite the transaction holds the only writer,
  // and another process's writes wait for it without yielding (a 1,000-member network: ~0.3 s).
  const ahead = await loadNetwork(ctx.db, tenantId, networkId);
  if (ahead) for (const m of compileNetwork(ahead.input, memoOf(tenantId, networkId)).members) storedForm(m);
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, tenantId);
    const loaded = await loadNetwork(trx, tenantId, networkId);
    const stored = await trx
      .selectFrom('member_config')
      .select(['id', 'member_id', 'version', 'hash'])
      .where('tenant_id', '=', tenantId)
      .where('network_id', '=', networkId)
      .execute();
    if (!loaded) {
      if (stored.length > 0) await trx.deleteFrom('member_config').where('tenant_id', '=', tenantId).where('network_id', '=', networkId).execute();
      const gone: RecompileResult = { added: [], changed: [], removedMemberIds: stored.map((s) => s.member_id), storedMemberIds: [], networkNumber: '' };
      if (onStored && stored.length > 0) await onStored(trx, gone);
      return gone;
    }
    const byMember = new Map(stored.map((s) => [s.member_id, s]));
    const previous = new Map<string, string>();
    for (const [name, id] of loaded.memberIds) {
      const row = byMember.get(id);
      if (row) previous.set(name, row.hash);
    }
    const diff = diffConfigs(previous, compileNetwork(loaded.input, memoOf(tenantId, networkId)));
    for (let i = 0; i < diff.added.length; i += INSERT_BATCH) {
      const rows = diff.added.slice(i, i + INSERT_BATCH).map((name) => ({
        tenant_id: tenantId,
        network_id: networkId,
        member_id: loaded.memberIds.get(name)!,
        version: 1,
        ...diff.forms.get(name)!,
        update_time: now,
      }));
      await trx.insertInto('member_config').values(rows).execute();
    }
    for (let i = 0; i < diff.changed.length; i += INSERT_BATCH) {
      const rows = diff.changed.slice(i, i + INSERT_BATCH).map((name) => {
        const row = byMember.get(loaded.memberIds.get(name)!)!;
        return { id: row.id, version: row.version + 1, ...diff.forms.get(name)! };
      });
      await updateVersions(trx, tenantId, rows, now);
    }
    const present = new Set(loaded.memberIds.values());
    const gone = stored.filter((s) => !present.has(s.member_id)).map((s) => s.member_id);
    if (gone.length > 0) {
      await trx.deleteFrom('member_config').where('tenant_id', '=', tenantId).where('network_id', '=', networkId).where('member_id', 'in', gone).execute();
    }
    const result: RecompileResult = {
      added: diff.added,
      changed: diff.changed,
      removedMemberIds: gone,
      storedMemberIds: [...diff.added, ...diff.changed].map((name) => loaded.memberIds.get(name)!),
      networkNumber: loaded.input.network_number,
    };
    if (onStored && (result.storedMemberIds.length > 0 || gone.length > 0)) await onStored(trx, result);
    return result;
  });
}
