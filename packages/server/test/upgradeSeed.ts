import { sql, type Kysely } from 'kysely';
import type { DbHandle } from '../src/db/connect';
import { MIGRATION_TABLE } from '../src/db/migrate';

/*
 * Representative rows for a database at any migration step (upgrade tests): the schema is read from
 * the database itself, the key tables get hand-written rows as the app writes them, every other table
 * one row filled by column type, foreign keys pointing at rows seeded before.
 */

export interface Column {
  name: string;
  type: string;
  /** varchar(n): n. */
  length: number | null;
  notNull: boolean;
  hasDefault: boolean;
  /** An integer primary key the database numbers itself. */
  auto: boolean;
}

export interface TableShape {
  name: string;
  columns: Column[];
  /** Column → referenced table and column. */
  refs: Map<string, { table: string; column: string }>;
}

type Row = Record<string, unknown>;
const anyDb = (h: DbHandle) => h.db as unknown as Kysely<Record<string, Row>>;

/** The application's tables (not the migrator's, not SQLite's FTS shadow tables). */
export async function readSchema(handle: DbHandle): Promise<TableShape[]> {
  const db = handle.db;
  const out: TableShape[] = [];
  if (handle.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
    for (const { name } of tables.rows) {
      if (name.startsWith('kysely_')) continue;
      const cols = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`select name, type, "notnull", dflt_value, pk from pragma_table_info(${name})`.execute(db);
      const pkCount = cols.rows.filter((c) => c.pk > 0).length;
      const fks = await sql<{ table: string; from: string; to: string | null }>`select "table", "from", "to" from pragma_foreign_key_list(${name})`.execute(db);
      out.push({
        name,
        columns: cols.rows.map((c) => ({
          name: c.name,
          type: c.type.toLowerCase().replace(/\(.*/, ''),
          length: Number(/\((\d+)\)/.exec(c.type)?.[1] ?? 0) || null,
          notNull: c.notnull === 1 || c.pk > 0,
          hasDefault: c.dflt_value !== null,
          auto: pkCount === 1 && c.pk === 1 && c.type.toLowerCase() === 'integer',
        })),
        refs: new Map(fks.rows.map((f) => [f.from, { table: f.table, column: f.to ?? 'id' }])),
      });
    }
    return out;
  }
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const cols = await sql<{ table: string; name: string; type: string; length: number | null; nullable: string; dflt: string | null }>`
    select table_name as table, column_name as name, data_type as type, character_maximum_length as length, is_nullable as nullable, column_default as dflt
    from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const fks = await sql<{ table: string; col: string; ref: string; refcol: string }>`
    select cl.relname as table, a.attname as col, rcl.relname as ref, ra.attname as refcol
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_class rcl on rcl.oid = c.confrelid
    cross join lateral unnest(c.conkey, c.confkey) as k(a1, a2)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.a1
    join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = k.a2
    where c.contype = 'f' and n.nspname = current_schema()`.execute(db);
  for (const { name } of tables.rows) {
    if (name.startsWith('kysely_')) continue;
    out.push({
      name,
      columns: cols.rows
        .filter((c) => c.table === name)
        .map((c) => ({
          name: c.name,
          type: c.type,
          length: c.length,
          notNull: c.nullable === 'NO',
          hasDefault: c.dflt !== null,
          auto: c.dflt?.startsWith('nextval(') ?? false,
        })),
      refs: new Map(fks.rows.filter((f) => f.table === name).map((f) => [f.col, { table: f.ref, column: f.refcol }])),
    });
  }
  return out;
}

const T0 = 1_717_200_000_000; // 2024-06-01, a plausible creation time

/** A value of a column's type for a table's filler row. */
function filler(table: string, c: Column): unknown {
  if (/int|serial|numeric|real|double/.test(c.type)) return c.type.startsWith('big') ? T0 + 1000 : 1;
  if (c.type === 'boolean') return true;
  const text = `${table}.${c.name} 示例`;
  return c.length ? text.slice(0, c.length) : text;
}

/**
 * The key tables as the app fills them: a tenant who can sign in, a role, a sub-account, a hardware
 * router and a software member, a network with both, a message. Columns a step does not have yet are
 * left out; columns not named here take their defaults (or a filler when they have none).
 */
function handRows(passwordHash: string): Record<string, Row[]> {
  const role = { create: 1, edit: 1, delete: 1 };
  return {
    account: [
      {
        username: 'acme2024',
        username_key: 'acme2024',
        nickname: '华东制造',
        password_hash: passwordHash,
        phone: '+86 13900001111',
        email: 'ops@acme.example',
        sign: 'acme',
        domain: 'acme-cn',
        status: 1,
        industry: '3',
        network_level: 1,
        network_router_count: 10,
        network_center_count: 2,
        dns_quantity: 2,
        ram_quantity: 5,
        create_time: T0,
        update_time: T0 + 60_000,
      },
    ],
    ram_role: [
      {
        name: '运维',
        name_key: '运维',
        note: '网络与设备',
        auth: JSON.stringify({ 'easylink.router': role, 'easylink.network': { ...role, network: [] }, monitor: { view: 1, ...role } }),
        create_time: T0,
        update_time: T0,
      },
    ],
    ram_account: [{ username: 'zhangwei', username_key: 'zhangwei', nickname: '张伟', password_hash: passwordHash, status: 1, create_time: T0, login_time: null }],
    member: [
      { router_name: 'SH-HQ-01', router_key: 'sh-hq-01', router_type: 1, note: '上海总部', secret_hash: passwordHash, status: 1, online_status: 0, create_time: T0, update_time: T0 },
      { router_name: 'lili', router_key: 'lili', router_type: 2, note: '李丽的电脑', secret_hash: passwordHash, phone: '+86 13900002222', status: 1, online_status: 0, create_time: T0, update_time: T0 },
    ],
    network: [{ network_number: 'N7K2Q9', network_name: '总部与门店', create_time: T0, update_time: T0 }],
    network_member: [
      { member_type: 'center', create_time: T0 },
    ],
    // Kept by triggers on member (migration 0006).
    member_count: [],
    message: [{ title: '服务即将到期', content: '您的基础版服务将于 7 天后到期。', type: 'service', status: 0, create_time: T0 }],
  };
}

/** Inserts rows into every table of the schema; returns the tables in the order they were filled. */
export async function seedEveryTable(handle: DbHandle, passwordHash: string): Promise<string[]> {
  const schema = await readSchema(handle);
  const hand = handRows(passwordHash);
  const firstRow = new Map<string, Row>();
  const done: string[] = [];
  const pending = [...schema];
  while (pending.length) {
    // The next table whose required references are all filled (self references stay null).
    const i = pending.findIndex((t) => [...t.refs].every(([col, r]) => r.table === t.name || firstRow.has(r.table) || !t.columns.find((c) => c.name === col)!.notNull));
    if (i < 0) throw new Error(`cannot order ${pending.map((t) => t.name).join(', ')} by their foreign keys`);
    const table = pending.splice(i, 1)[0]!;
    const rows = hand[table.name] ?? [{}];
    const handWritten = table.name in hand;
    for (const given of rows) {
      const row: Row = {};
      for (const c of table.columns) {
        const ref = table.refs.get(c.name);
        if (ref) {
          const target = ref.table === table.name ? undefined : firstRow.get(ref.table);
          if (target) row[c.name] = target[ref.column];
          else if (c.notNull) throw new Error(`${table.name}.${c.name}: nothing to refer to in ${ref.table}`);
          else row[c.name] = null;
        } else if (c.name in given) row[c.name] = given[c.name];
        else if (c.auto || c.hasDefault) continue;
        else if (handWritten && !c.notNull) continue;
        else row[c.name] = filler(table.name, c);
      }
      await anyDb(handle).insertInto(table.name).values(row).execute();
    }
    // The network's second member: the software one, as a point.
    if (table.name === 'network_member') {
      const software = await anyDb(handle).selectFrom('member').selectAll().where('router_type', '=', 2).executeTakeFirst();
      const first = await anyDb(handle).selectFrom('network_member').selectAll().executeTakeFirstOrThrow();
      if (software) {
        const { id: _id, ...rest } = first;
        await anyDb(handle).insertInto('network_member').values({ ...rest, member_id: software.id, member_type: 'point' }).execute();
      }
    }
    const first = await anyDb(handle).selectFrom(table.name).selectAll().limit(1).executeTakeFirst();
    if (first) firstRow.set(table.name, first);
    done.push(table.name);
  }
  return done;
}

/** Every row of every application table, each as its columns' values. */
export async function readRows(handle: DbHandle): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const t of await readSchema(handle)) out.set(t.name, await anyDb(handle).selectFrom(t.name).selectAll().execute());
  return out;
}

/** The applied migrations (their names), to compare before and after. */
export async function appliedNames(handle: DbHandle): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(handle.db);
  return rows.map((r) => r.name);
}
