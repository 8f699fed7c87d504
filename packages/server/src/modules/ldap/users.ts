import { fmt, LDAP_MEMBER_SOURCE, LIMITS, M, MEMBER_NAME_PATTERN, ROUTER_TYPE, type LdapUser, type listLdapUsers } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { NO_LOCAL_SECRET } from '../../domain/ldapSignIn';
import { createMembers, deleteMembers, memberKey, placesLeft } from '../../domain/members';
import { contains, pageOf } from '../../core/paging';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { nameIssue } from './selection';
import { enabledConfig, freshConfig, hashOf, inTurn, noteOf, type ConfigRow } from './state';

/*
 * The directory's users as the console lists them, and their members: importing makes a software
 * member (router_type 2, source LDAP_MEMBER_SOURCE) of a user, with the tenant's quota and the member events of
 * core/members.ts, under the tenant's lock; removing deletes the member and keeps the user listed.
 * Every call that acts on the listing carries its hash and holds the tenant's turn, so it acts on the
 * listing the caller saw and never beside a sync.
 */

type ListQuery = z.output<typeof listLdapUsers.query>;
const CHUNK = 500;

const COLUMNS = ['username', 'member_name', 'description', 'phone', 'email', 'uuid', 'member_id', 'verify', 'disabled'] as const;
type Row = { username: string; member_name: string; description: string; phone: string; email: string; uuid: string; member_id: number | null; verify: string; disabled: number; same: number | string | bigint | null };
const toItem = (r: Row): LdapUser => ({
  username: r.username,
  member_name: r.member_name,
  description: r.description,
  phone: r.phone,
  email: r.email,
  issue: nameIssue(r.member_name, Number(r.same ?? 0)),
  uuid: r.uuid,
  exist: r.member_id !== null,
  verify: r.verify,
  disable: r.disabled,
});

/**
 * The listing: search matches the username or the description and shows at most LIMITS.ldapSearchShown
 * (spec 3 §2), one page; without a search, pages of the query's limit. Ordered by username.
 */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ list: LdapUser[]; hash: string; count: number }> {
  const config = await enabledConfig(ctx.db, actor.tenantId);
  const text = q.search;
  const filtered = ctx.db
    .selectFrom('ldap_user')
    .where('tenant_id', '=', actor.tenantId)
    .$if(!!text, (qb) => qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('username'), text!), contains(ctx.dialect, eb.ref('description'), text!)])))
    .$if(q.exist === 1, (qb) => qb.where('member_id', 'is not', null))
    .$if(q.exist === 0, (qb) => qb.where('member_id', 'is', null));
  // How many users of the tenant map to the same member name: more than one is a collision the listing shows.
  const ordered = (qb: typeof filtered) =>
    qb
      .select(COLUMNS)
      .select((eb) =>
        eb
          .selectFrom('ldap_user as o')
          .select((o) => o.fn.countAll().as('n'))
          .whereRef('o.tenant_id', '=', 'ldap_user.tenant_id')
          .whereRef('o.member_key', '=', 'ldap_user.member_key')
          .as('same'),
      )
      .orderBy('username')
      .orderBy('id');
  if (text) {
    const rows = await ordered(filtered).limit(LIMITS.ldapSearchShown).execute();
    return { list: rows.map(toItem), hash: hashOf(config), count: rows.length };
  }
  const { rows, count } = await pageOf(filtered, q, ordered);
  return { list: rows.map(toItem), hash: hashOf(config), count };
}

type Candidate = { id: number; member_name: string; member_key: string; description: string; disabled: number };

/**
 * Imports one chunk of users under the tenant's lock: each either becomes a member or gets its reason
 * (a name no member may have, a name taken, the quota full) in verify; with `refuse`, a reason refuses
 * the whole chunk instead (422, nothing written). Answers the outcome per user id ('' imported).
 */
async function importChunk(ctx: Ctx, config: ConfigRow, users: Candidate[], refuse = false): Promise<Map<number, string>> {
  const tenantId = config.tenant_id;
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, tenantId);
    const keys = [...new Set(users.map((u) => memberKey(u.member_name)))];
    const taken = new Set((await trx.selectFrom('member').select('router_key').where('tenant_id', '=', tenantId).where('router_key', 'in', keys).execute()).map((r) => r.router_key));
    // Users of the directory that map to the same member name: none of them is imported (the listing shows why).
    const sharing = await trx
      .selectFrom('ldap_user')
      .select(['member_key', (eb) => eb.fn.countAll().as('n')])
      .where('tenant_id', '=', tenantId)
      .where('member_key', 'in', keys)
      .groupBy('member_key')
      .execute();
    const sharers = new Map(sharing.map((r) => [r.member_key, Number(r.n)]));
    const places = await placesLeft(trx, tenantId);
    let left = places.left;
    const reasons = new Map<number, string>();
    const admitted: Candidate[] = [];
    for (const u of users) {
      const key = memberKey(u.member_name);
      const issue = nameIssue(u.member_name, sharers.get(key) ?? 1);
      if (issue) reasons.set(u.id, issue);
      else if (u.member_name.length > LIMITS.memberNameMax || !MEMBER_NAME_PATTERN.test(u.member_name)) reasons.set(u.id, M.ldapImportNameInvalid);
      else if (taken.has(key)) reasons.set(u.id, M.ldapImportNameTaken);
      else if (left <= 0) reasons.set(u.id, fmt(M.ldapImportQuotaFull, { n: places.max }));
      else {
        reasons.set(u.id, '');
        taken.add(key);
        left--;
        admitted.push(u);
      }
      if (refuse && reasons.get(u.id)) throw invalid(reasons.get(u.id)!);
    }
    if (admitted.length > 0) {
      const now = Date.now();
      const created = await createMembers(
        ctx,
        trx,
        tenantId,
        admitted.map((u) => ({
          router_name: u.member_name,
          router_type: ROUTER_TYPE.software,
          note: noteOf(u.description),
          secret_hash: NO_LOCAL_SECRET,
          status: u.disabled ? 0 : 1,
          source: LDAP_MEMBER_SOURCE,
        })),
        now,
      );
      // Each user gets its member in one statement for the chunk (a statement per user was 5 s for
      // 5,000 users on PostgreSQL, one round trip each: docs/performance.md, directory sync).
      await trx
        .updateTable('ldap_user')
        .set((eb) => ({
          member_id: eb.selectFrom('member').select('member.id').where('member.tenant_id', '=', tenantId).whereRef('member.router_key', '=', 'ldap_user.member_key'),
          verify: '',
          update_time: now,
        }))
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', admitted.map((u) => u.id))
        .execute();
      const ids = created.map((c) => c.id);
      if (config.network_number) await ctx.events.emit(trx, { type: 'ldap.members_imported', tenant_id: tenantId, network_number: config.network_number, member_ids: ids });
    }
    // The others say why, grouped by reason.
    const byReason = new Map<string, number[]>();
    for (const [id, reason] of reasons) if (reason) byReason.set(reason, [...(byReason.get(reason) ?? []), id]);
    for (const [reason, ids] of byReason) await trx.updateTable('ldap_user').set({ verify: reason }).where('id', 'in', ids).execute();
    return reasons;
  });
}

const candidates = (db: Db, tenantId: number) =>
  db.selectFrom('ldap_user').select(['id', 'member_name', 'member_key', 'description', 'disabled']).where('tenant_id', '=', tenantId).where('member_id', 'is', null);

/** Imports one user; one that cannot be imported is refused with its reason (422) and nothing changes. */
export async function importOne(ctx: Ctx, actor: Actor, hash: string, uuid: string): Promise<void> {
  await inTurn(ctx, actor.tenantId, async () => {
    const config = await freshConfig(ctx.db, actor.tenantId, hash);
    const user = await ctx.db.selectFrom('ldap_user').select(['id', 'member_name', 'member_key', 'description', 'disabled', 'member_id']).where('tenant_id', '=', actor.tenantId).where('uuid', '=', uuid).executeTakeFirst();
    if (!user) throw invalid(M.ldapUserMissing);
    if (user.member_id !== null) throw invalid(M.ldapUserImported);
    await importChunk(ctx, config, [user], true);
  });
}

/** Imports every user not yet imported, in chunks; each one that cannot be imported keeps its reason in verify. */
export async function importAll(ctx: Ctx, actor: Actor, hash: string): Promise<{ success: number; fail: number }> {
  return inTurn(ctx, actor.tenantId, async () => {
    const config = await freshConfig(ctx.db, actor.tenantId, hash);
    let success = 0;
    let fail = 0;
    let after = 0;
    for (;;) {
      const chunk = await candidates(ctx.db, actor.tenantId).where('id', '>', after).orderBy('id').limit(CHUNK).execute();
      if (chunk.length === 0) break;
      after = chunk.at(-1)!.id;
      for (const reason of (await importChunk(ctx, config, chunk)).values()) {
        if (reason) fail++;
        else success++;
      }
    }
    return { success, fail };
  });
}

/**
 * The automatic sync's import (auto_import, issue 33): these users, listed by this sync for the first
 * time, as import-all imports them; one that cannot be imported keeps its reason in verify. The
 * caller holds the turn.
 */
export async function importNew(ctx: Ctx, config: ConfigRow, ids: number[]): Promise<void> {
  for (let from = 0; from < ids.length; from += CHUNK) {
    const chunk = await candidates(ctx.db, config.tenant_id)
      .where('id', 'in', ids.slice(from, from + CHUNK))
      .orderBy('id')
      .execute();
    if (chunk.length > 0) await importChunk(ctx, config, chunk);
  }
}

type Which = { uuid: string } | 'all' | 'disabled';

/** Deletes the members of the chosen imported users, in chunks under the tenant's lock; answers how many. */
async function removeMembers(ctx: Ctx, tenantId: number, which: Which): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await ctx.db
      .selectFrom('ldap_user')
      .select(['id', 'member_id'])
      .where('tenant_id', '=', tenantId)
      .where('member_id', 'is not', null)
      .$if(which === 'disabled', (qb) => qb.where('disabled', '=', 1))
      .$if(typeof which === 'object', (qb) => qb.where('uuid', '=', (which as { uuid: string }).uuid))
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    if (rows.length === 0) return removed;
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, tenantId);
      // The users stay listed; their member link goes with the member (foreign key, set null).
      await deleteMembers(
        ctx,
        trx,
        tenantId,
        rows.map((r) => r.member_id!),
      );
      await trx
        .updateTable('ldap_user')
        .set({ member_id: null, verify: '' })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    });
    removed += rows.length;
  }
}

export async function removeOne(ctx: Ctx, actor: Actor, hash: string, uuid: string): Promise<void> {
  await inTurn(ctx, actor.tenantId, async () => {
    await freshConfig(ctx.db, actor.tenantId, hash);
    const user = await ctx.db.selectFrom('ldap_user').select('member_id').where('tenant_id', '=', actor.tenantId).where('uuid', '=', uuid).executeTakeFirst();
    if (!user) throw invalid(M.ldapUserMissing);
    if (user.member_id === null) throw invalid(M.ldapUserNotImported);
    await removeMembers(ctx, actor.tenantId, { uuid });
  });
}

/** remove_all ('all') and remove_disable ('disabled'). */
export function removeMany(ctx: Ctx, actor: Actor, hash: string, which: 'all' | 'disabled'): Promise<number> {
  return inTurn(ctx, actor.tenantId, async () => {
    await freshConfig(ctx.db, actor.tenantId, hash);
    return removeMembers(ctx, actor.tenantId, which);
  });
}

/** Every imported member of the tenant goes (LDAP is closing); the caller holds the turn. */
export const removeAllMembers = (ctx: Ctx, tenantId: number) => removeMembers(ctx, tenantId, 'all');
