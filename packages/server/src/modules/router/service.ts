import {
  CODE,
  deviceInterface,
  fmt,
  LDAP_MEMBER_SOURCE,
  M,
  MEMBER_NAME_PATTERN,
  phoneValue,
  ROUTER_TYPE,
  searchableText,
  type addRouter,
  type listRouters,
  type MemberState,
  type MemberOption,
  type RouterDetail,
  type RouterInterface,
  type RouterItem,
} from '@hublink/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { allowedNetworks } from '../../core/networks';
import { lockTenant } from '../../core/tenantLock';
import { memberStateCondition, stateScopeOf } from '../../domain/memberStates';
import { countByType, createMembers, deleteMembers, memberChanged, memberKey, memberLimit, placesLeft } from '../../domain/members';
import { contains, offsetOf, pageOf } from '../../core/paging';
import { hashPassword } from '../../core/passwords';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import type { Database } from '../../db/types';

// Members of a tenant (spec 3 "Member list"): hardware routers and software clients, addressed by
// router_name, unique in the tenant case-insensitively (router_key); hardware names across tenants.

type ListQuery = z.output<typeof listRouters.query>;
type AddInput = z.output<typeof addRouter.body>;

export const keyOf = memberKey;

/** Characters of a trigram: shorter searches cannot use the full-text index. */
const TRIGRAM = 3;

/**
 * The search box of the member list: the name, the note or the phone contains the text, in any
 * case, with % and _ taken literally. On SQLite a text of 3 characters or more goes through the
 * trigram index member_fts (migration 0008), which finds the same rows without a scan. Otherwise the
 * scan is kept cheap: router_key is the name lower-cased already, and a column that cannot hold the
 * text (a name holds only letters, digits, '_' and '.'; a phone only digits, '+' and a space) is
 * not looked at.
 */
export function memberSearch(ctx: Ctx, eb: ExpressionBuilder<Database, 'member'>, text: string): Expression<SqlBool> {
  // The contract drops these from searches already; FTS5 (NUL ends its query) and PostgreSQL (no NUL in text) cannot take them.
  const lower = searchableText(text).toLowerCase();
  if (ctx.dialect === 'sqlite' && [...lower].length >= TRIGRAM) {
    // One FTS5 phrase: its characters are literal but '"', written twice.
    const phrase = `"${lower.replaceAll('"', '""')}"`;
    return sql<SqlBool>`${eb.ref('member.id')} in (select rowid from member_fts where member_fts match ${phrase})`;
  }
  return eb.or([
    ...(MEMBER_NAME_PATTERN.test(lower) ? [contains(ctx.dialect, eb.ref('router_key'), lower)] : []),
    contains(ctx.dialect, eb.ref('note'), lower),
    ...(/^[\d +]+$/.test(lower) ? [contains(ctx.dialect, eb.ref('phone'), lower)] : []),
  ]);
}

const ITEM_COLUMNS = [
  'id',
  'router_name',
  'note',
  'router_type',
  'phone',
  'area_number',
  'online_status',
  'version',
  'os',
  'source',
  'status',
  'name',
  'create_time',
] as const;

type ItemRow = {
  router_name: string;
  note: string;
  router_type: number;
  phone: string | null;
  area_number: string | null;
  online_status: number;
  version: string;
  os: string;
  source: string;
  status: number;
  name: string;
  create_time: number;
};

export const toItem = (ctx: Ctx, r: ItemRow): RouterItem => ({
  router_name: r.router_name,
  note: r.note,
  router_type: r.router_type,
  phone: r.phone ?? '',
  area_number: r.area_number ?? '',
  online_status: r.online_status,
  version: r.version,
  os: r.os,
  source: r.source,
  status: r.status,
  name: r.name,
  create_time: formatTime(Number(r.create_time), ctx.config.timezone),
});

/** The tenant's members of one kind, matching the search and in the state (an overview figure's) when there are. */
export function filtered(ctx: Ctx, actor: Actor, type: number, search?: string, state?: MemberState) {
  return ctx.db
    .selectFrom('member')
    .where('tenant_id', '=', actor.tenantId)
    .where('router_type', '=', type)
    .$if(!!search, (qb) => qb.where((eb) => memberSearch(ctx, eb, search!)))
    .$if(!!state, (qb) => qb.where((eb) => memberStateCondition(eb, state!, stateScopeOf(actor))));
}

/**
 * One page of a tab, newest first, on the (tenant_id, router_type, id) index. The total: without a
 * search, member_count keeps it and comes in the page's own query (one round trip on PostgreSQL, not
 * two); with one, a page that is not full tells it (a narrow search costs one scan, not two),
 * otherwise the matches are counted.
 */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: RouterItem[]; count: number }> {
  if (q.search || q.state) {
    const { rows, count } = await pageOf(filtered(ctx, actor, q.type, q.search, q.state), q, (qb) => qb.select(ITEM_COLUMNS).orderBy('id', 'desc'));
    return { rows: rows.map((r) => toItem(ctx, r)), count };
  }
  const kept = (eb: ExpressionBuilder<Database, 'member'>) =>
    eb.selectFrom('member_count').select('n').where('member_count.tenant_id', '=', actor.tenantId).where('member_count.router_type', '=', q.type);
  const offset = offsetOf(q.page, q.limit);
  const rows = await filtered(ctx, actor, q.type)
    .select(ITEM_COLUMNS)
    .select((eb) => kept(eb).as('total'))
    .$if(ctx.dialect === 'postgres', (qb) => qb.where('id', 'in', (eb) => pageIds(eb, actor.tenantId, q.type, q.limit, offset)))
    .$if(ctx.dialect === 'sqlite', (qb) => qb.limit(q.limit).offset(offset))
    .orderBy('id', 'desc')
    .execute();
  // Past the end the page has no row to carry the total.
  const count = rows.length > 0 ? Number(rows[0]!.total ?? 0) : (await countByType(ctx.db, actor.tenantId))[q.type === ROUTER_TYPE.hardware ? 'hardware' : 'software'];
  return { rows: rows.map((r) => toItem(ctx, r)), count };
}

/**
 * The ids of one page, alone: PostgreSQL steps over the offset in the index without fetching the
 * skipped rows (an index-only scan), where the plain page fetched every skipped row. SQLite skips
 * them unfetched by itself, and the subquery costs it about 0.1 ms.
 */
function pageIds(eb: ExpressionBuilder<Database, 'member'>, tenantId: number, type: number, limit: number, offset: number) {
  return eb.selectFrom('member as p').select('p.id').where('p.tenant_id', '=', tenantId).where('p.router_type', '=', type).orderBy('p.id', 'desc').limit(limit).offset(offset);
}

const optionOf = (r: { router_name: string; note: string; router_type: number; online_status: number }): MemberOption => ({
  router_name: r.router_name,
  note: r.note,
  router_type: r.router_type,
  online: r.online_status,
});

const OPTION_COLUMNS = ['router_name', 'note', 'router_type', 'online_status'] as const;

/** Every member of the tenant for the network pickers: hardware (router) and software (app). */
export async function members(ctx: Ctx, actor: Actor): Promise<{ router: MemberOption[]; app: MemberOption[] }> {
  const rows = await ctx.db
    .selectFrom('member')
    .select(OPTION_COLUMNS)
    .where('tenant_id', '=', actor.tenantId)
    .orderBy('router_type')
    .orderBy('id', 'desc')
    .execute();
  return {
    router: rows.filter((r) => r.router_type === ROUTER_TYPE.hardware).map(optionOf),
    app: rows.filter((r) => r.router_type === ROUTER_TYPE.software).map(optionOf),
  };
}

/** The members of one kind for a select, matching the search, at most LIMITS.memberPickerMax. */
export async function options(ctx: Ctx, actor: Actor, type: number, search: string | undefined, max: number): Promise<MemberOption[]> {
  const rows = await filtered(ctx, actor, type, search).select(OPTION_COLUMNS).orderBy('id', 'desc').limit(max).execute();
  return rows.map(optionOf);
}

export async function quantity(ctx: Ctx, actor: Actor, db: Db = ctx.db) {
  const [max, used] = await Promise.all([memberLimit(db, actor.tenantId), countByType(db, actor.tenantId)]);
  return { ...used, max, software_surplus: Math.max(0, max - used.hardware - used.software) };
}

/** A member of the tenant by name (case-insensitively), or 204. */
export async function findMember(db: Db, actor: Actor, name: string) {
  const m = await db.selectFrom('member').selectAll().where('tenant_id', '=', actor.tenantId).where('router_key', '=', keyOf(name)).executeTakeFirst();
  if (!m) throw notFound(M.memberNotFound);
  return m;
}

/** A software member of the tenant by name; a hardware one is refused. */
export async function findSoftware(db: Db, actor: Actor, name: string) {
  const m = await findMember(db, actor, name);
  if (m.router_type !== ROUTER_TYPE.software) throw invalid(M.memberSoftwareOnly);
  return m;
}

export async function info(ctx: Ctx, actor: Actor, name: string): Promise<RouterDetail> {
  const m = await findMember(ctx.db, actor, name);
  const allowed = allowedNetworks(actor);
  const networks = await ctx.db
    .selectFrom('network_member as mine')
    .innerJoin('network', 'network.id', 'mine.network_id')
    .innerJoin('network_member as all', 'all.network_id', 'mine.network_id')
    .select(['network.network_name', 'network.network_number', (eb) => eb.fn.countAll<number>().as('n')])
    .where('mine.member_id', '=', m.id)
    .where('mine.tenant_id', '=', actor.tenantId)
    .where('network.tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network.network_number', 'in', allowed!))
    .groupBy(['network.id', 'network.network_name', 'network.network_number'])
    .orderBy('network.id')
    .execute();
  return {
    ...toItem(ctx, m),
    router_model: m.router_model,
    router_ipv4: m.router_ipv4,
    router_mac: m.router_mac,
    online_time: m.online_status === 1 && m.online_time !== null ? formatTime(Number(m.online_time), ctx.config.timezone) : '',
    network: networks.map((n) => ({ network_name: n.network_name, network_number: n.network_number, network_member_count: Number(n.n) })),
    interfaces: interfacesOf(m.interfaces),
    input: Number(m.traffic_in),
    out: Number(m.traffic_out),
  };
}

/** The interfaces column as the gateway wrote it; a value it cannot read shows as no interfaces. */
const storedInterfaces = z.array(deviceInterface).catch([]);
function interfacesOf(json: string): RouterInterface[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  return storedInterfaces.parse(raw);
}

export async function traffic(ctx: Ctx, actor: Actor, name: string): Promise<{ online: number; input: number; out: number }> {
  const m = await findMember(ctx.db, actor, name);
  return { online: m.online_status === 1 ? 1 : 0, input: Number(m.traffic_in), out: Number(m.traffic_out) };
}

export async function setNote(ctx: Ctx, actor: Actor, name: string, note: string) {
  const m = await findMember(ctx.db, actor, name);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('member').set({ note, update_time: Date.now() }).where('id', '=', m.id).where('tenant_id', '=', actor.tenantId).execute();
    await memberChanged(ctx, trx, actor.tenantId, m.id, 'note');
  });
}

/**
 * Deletes a member; it leaves every network with it (network_member and member_link rows cascade),
 * which changes the tenant's kept counts, so under the tenant's lock.
 */
export async function remove(ctx: Ctx, actor: Actor, name: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const m = await findMember(trx, actor, name);
    await deleteMembers(ctx, trx, actor.tenantId, [m.id]);
  });
}

/** Enables a disabled software member or disables an enabled one; answers the new status. */
export async function toggleStatus(ctx: Ctx, actor: Actor, name: string): Promise<{ status: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    const m = await findSoftware(trx, actor, name);
    const status = m.status === 1 ? 0 : 1;
    await trx.updateTable('member').set({ status, update_time: Date.now() }).where('id', '=', m.id).where('tenant_id', '=', actor.tenantId).execute();
    await memberChanged(ctx, trx, actor.tenantId, m.id, 'status');
    return { status };
  });
}

/** Sets a software member's password; a member imported from the directory signs in with the directory's. */
export async function setPassword(ctx: Ctx, actor: Actor, name: string, password: string) {
  const m = await findSoftware(ctx.db, actor, name);
  if (m.source === LDAP_MEMBER_SOURCE) throw invalid(M.memberDirectoryPassword);
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('member').set({ secret_hash: hash, update_time: Date.now() }).where('id', '=', m.id).where('tenant_id', '=', actor.tenantId).execute();
    await memberChanged(ctx, trx, actor.tenantId, m.id, 'password');
  });
}

/** Refuses a name in use: a hardware name anywhere (a device says only its name), any name in the tenant. */
async function ensureNameFree(db: Db, actor: Actor, key: string, hardware: boolean) {
  if (hardware) {
    const device = await db.selectFrom('member').select('id').where('router_key', '=', key).where('router_type', '=', ROUTER_TYPE.hardware).executeTakeFirst();
    if (device) throw invalid(M.memberHardwareTaken);
  }
  const own = await db.selectFrom('member').select('id').where('tenant_id', '=', actor.tenantId).where('router_key', '=', key).executeTakeFirst();
  if (own) throw invalid(M.memberNameTaken);
}

/** The member of the tenant holding a phone ('+86 138…'), if any. */
export async function phoneHolder(db: Db, tenantId: number, phone: string, exceptId?: number) {
  return db
    .selectFrom('member')
    .select(['id', 'router_name'])
    .where('tenant_id', '=', tenantId)
    .where('phone', '=', phone)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
}

/**
 * The checks of an add that need no code: the name, the quota, and the phone (bound to another
 * member: 401 unless type 2 asks to move it). Answers the member the phone moves from.
 */
async function checkAdd(db: Db, actor: Actor, input: { key: string; hardware: boolean; phone: string | null; type: number }) {
  await ensureNameFree(db, actor, input.key, input.hardware);
  const { left, max } = await placesLeft(db, actor.tenantId);
  if (left <= 0) throw invalid(fmt(M.memberQuotaFull, { n: max }));
  if (!input.phone) return undefined;
  const holder = await phoneHolder(db, actor.tenantId, input.phone);
  if (holder && input.type !== 2) throw new ApiError(CODE.flow401, M.memberPhoneTaken);
  return holder;
}

/**
 * Adds a member (the member add form). Hardware: the name is the device's router_name and the
 * password its secret; no phone. Software: an optional phone proven by its app_bind_phone code; a
 * phone another member holds answers 401, and type 2 with the code moves it to the new member.
 * Checks that need no code come first, so a refused add leaves the code usable.
 */
export async function add(ctx: Ctx, actor: Actor, input: AddInput): Promise<void> {
  const hardware = input.router_type === ROUTER_TYPE.hardware;
  if (hardware && input.phone) throw invalid(M.memberHardwarePhone);
  const key = keyOf(input.username);
  const area = input.area_code.replace(/^\+/, '');
  const phone = input.phone ? phoneValue(area, input.phone) : null;
  const check = { key, hardware, phone, type: input.type };

  await checkAdd(ctx.db, actor, check);
  if (phone) await ctx.codes.consume('phone', phone, 'app_bind_phone', input.code);
  const secretHash = await hashPassword(input.password);
  const now = Date.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, actor.tenantId);
      const from = await checkAdd(trx, actor, check);
      if (from) {
        await trx.updateTable('member').set({ phone: null, area_number: null, update_time: now }).where('id', '=', from.id).where('tenant_id', '=', actor.tenantId).execute();
        await memberChanged(ctx, trx, actor.tenantId, from.id, 'phone');
      }
      await createMembers(
        ctx,
        trx,
        actor.tenantId,
        [{ router_name: input.username, router_type: input.router_type, note: input.note, secret_hash: secretHash, area_number: phone ? area : null, phone, source: 'console' }],
        now,
      );
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // A unique index decided a race on the name (a device's name in another tenant, say).
    await ensureNameFree(ctx.db, actor, key, hardware);
    throw e;
  }
}
