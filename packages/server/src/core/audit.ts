import { AsyncLocalStorage } from 'node:async_hooks';
import {
  AliasNode,
  ColumnNode,
  CompiledQuery,
  DeleteQueryNode,
  DummyDriver,
  Kysely,
  InsertQueryNode,
  LimitNode,
  PrimitiveValueListNode,
  SelectionNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type DatabaseConnection,
  type Dialect,
  type OperationNode,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
} from 'kysely';
import { auditNameList, auditReference, LIMITS, referenceIds, type AuditField, type ChangeEffect, type AuditOp, type AuditReference, type DomainEvent } from '@hublink/contract';
import { isAudited, keyColumnOf } from '../db/owners';
import { diffRow, nameOf, type CapturedChange } from './auditEntry';
import { wrapConnections } from '../db/wrapConnections';

/**
 * The audit trail's change capture (issue 18). route() (and the operator CLI) opens a scope around a
 * mutating call; every query the call runs goes through the connection wrapper that auditedDialect()
 * installs, and an INSERT, UPDATE or DELETE on an audited table inside a scope adds its row changes:
 * for UPDATE and DELETE the rows the statement's WHERE names are read first on the same connection
 * (at most LIMITS.auditChangesMax + 1), for UPDATE they are read again by id afterwards; an INSERT
 * records the values the statement carries. Only fields that changed are kept, secrets only as
 * "changed", long values cut. Outside a scope (jobs, event handlers, the gateway) nothing is captured.
 */

/** Who made a call and how: what its entry says besides its answer and its changes. */
export type PendingCall = Omit<DomainEvent<'operation.performed'>, 'type' | 'msg' | 'object' | 'changes' | 'more'>;

export interface AuditScope {
  changes: CapturedChange[];
  /** Row changes beyond LIMITS.auditChangesMax (counted, not kept). */
  more: number;
  /** Set when the call has answered: a query that runs later (a promise the call left running) is not its change. */
  closed: boolean;
  /**
   * With it, each statement's row changes are also written to audit_pending in the statement's own
   * transaction (one is opened around a statement run outside any), so no change commits without its
   * record: the call's end, or the audit module's sweep after a crash, turns them into the entry.
   */
  pending?: { id: string; call: PendingCall };
  /** What a network settings call did (issue 36), for its entry: set once the change has committed. */
  effect?: ChangeEffect;
}

const storage = new AsyncLocalStorage<AuditScope>();

export const openScope = (pending?: AuditScope['pending']): AuditScope => ({ changes: [], more: 0, closed: false, ...(pending ? { pending } : {}) });

/** Runs fn with its queries captured into scope; the scope closes when fn settles. */
export async function captured<T>(scope: AuditScope, fn: () => Promise<T>): Promise<T> {
  try {
    return await storage.run(scope, fn);
  } finally {
    scope.closed = true;
  }
}

/** A network settings call's effect goes into its entry (a call's later work, after it answered, does not). */
export function noteEffect(effect: ChangeEffect): void {
  const scope = storage.getStore();
  if (scope && !scope.closed) scope.effect = effect;
}

/** Runs fn outside any scope (the event dispatcher: its passes must not count as a call's changes). */
export const uncaptured = <T>(fn: () => T): T => storage.exit(fn);

type Row = Record<string, unknown>;

const tenantOf = (table: string, row: Row | undefined): number | null => {
  if (!row) return null;
  const t = table === 'account' ? row.id : row.tenant_id;
  return typeof t === 'number' ? t : typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : typeof t === 'bigint' ? Number(t) : null;
};

const keyOf = (table: string, row: Row | undefined): number | string | null => {
  const v = row?.[keyColumnOf(table)];
  return typeof v === 'number' || typeof v === 'string' ? v : typeof v === 'bigint' ? Number(v) : null;
};
const idOf = (row: Row | undefined) => keyOf('', row);

function record(scope: AuditScope, table: string, op: AuditOp, before: Row | undefined, after: Row | undefined) {
  const fields = diffRow(before, after);
  if (op === 'update' && fields.length === 0) return;
  if (scope.changes.length >= LIMITS.auditChangesMax) {
    scope.more++;
    return;
  }
  const row = after ?? before;
  scope.changes.push({ table, id: keyOf(table, row), op, fields, tenantId: tenantOf(table, row), name: nameOf(row) });
}

/** The table a statement writes, and how the statement refers to it (its alias, if any). */
function targetOf(node: OperationNode | undefined): { name: string; table: TableNode; ref: OperationNode } | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return { name: node.table.identifier.name, table: node, ref: node };
  if (AliasNode.is(node) && TableNode.is(node.node)) return { name: node.node.table.identifier.name, table: node.node, ref: node };
  return undefined;
}

/** select <target>.* from <the statement's tables> where <its where> limit n + 1. */
function selectBefore(target: { table: TableNode; ref: OperationNode }, froms: readonly OperationNode[], node: UpdateQueryNode | DeleteQueryNode): SelectQueryNode {
  const aliasTable = AliasNode.is(target.ref) ? TableNode.create((target.ref.alias as { name?: string }).name ?? target.table.table.identifier.name) : target.table;
  return Object.freeze({
    ...SelectQueryNode.createFrom(froms, node.with),
    selections: [SelectionNode.createSelectAllFromTable(aliasTable)],
    ...(node.joins ? { joins: node.joins } : {}),
    ...(node.where ? { where: node.where } : {}),
    limit: LimitNode.create(ValueNode.createImmediate(LIMITS.auditChangesMax + 1)),
  });
}

/** select * from <table> where <its key> in (ids). */
function selectByIds(table: TableNode, ids: readonly (number | string)[]): SelectQueryNode {
  return Object.freeze({
    ...SelectQueryNode.createFrom([table]),
    selections: [SelectionNode.createSelectAll()],
    where: Object.freeze({
      kind: 'WhereNode' as const,
      where: Object.freeze({
        kind: 'BinaryOperationNode' as const,
        leftOperand: ColumnNode.create(keyColumnOf(table.table.identifier.name)),
        operator: Object.freeze({ kind: 'OperatorNode' as const, operator: 'in' as const }),
        rightOperand: PrimitiveValueListNode.create(ids),
      }),
    }),
  });
}

/** The rows an INSERT carries, as column → value (values that are expressions are kept as such). */
function insertedRows(node: InsertQueryNode): Row[] {
  const columns = (node.columns ?? []).map((c) => c.column.name);
  if (!node.values || !ValuesNode.is(node.values)) return [];
  return node.values.values.map((list) => {
    const row: Row = {};
    if (PrimitiveValueListNode.is(list)) list.values.forEach((v, i) => (row[columns[i]!] = v));
    else if (ValueListNode.is(list))
      list.values.forEach((v, i) => {
        if (v.kind === 'DefaultInsertValueNode') return;
        row[columns[i]!] = ValueNode.is(v) ? v.value : '(expression)';
      });
    return row;
  });
}

type Run = (q: CompiledQuery) => Promise<QueryResult<Row>>;

/** Builds (never runs) the name look-ups in the database's own SQL: any table, any column. */
type Builder = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Issue 31: a changed column that holds another row's id (auditReference: role_id, network_id, …) gets
 * that row's name as it is at the change, read on the statement's own connection (inside its
 * transaction) and only in the changed row's own tenant; a row the call itself deleted is named from
 * its captured delete. An id no row answers for keeps no name (the page shows "#id").
 */
async function nameReferences(scope: AuditScope, changes: readonly CapturedChange[], run: Run, builder: Builder): Promise<void> {
  type Wanted = { table: string; name: string; tenantId: number; ids: Set<number> };
  const wanted = new Map<string, Wanted>();
  const idOfCell = (v: AuditField['before']): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : null);
  const visit = (each: (ref: AuditReference, c: CapturedChange, f: AuditField) => void) => {
    for (const c of changes) {
      if (c.tenantId === null) continue;
      for (const f of c.fields) {
        const ref = auditReference(c.table, f.field);
        if (ref && ref.name && !f.secret) each(ref, c, f);
      }
    }
  };
  const idsOfCell = (ref: AuditReference, v: AuditField['before']): number[] => {
    if (ref.list) return referenceIds(v);
    const id = idOfCell(v);
    return id === null ? [] : [id];
  };
  visit((ref, c, f) => {
    const key = `${ref.table}.${ref.name}.${c.tenantId}`;
    const w = wanted.get(key) ?? { table: ref.table, name: ref.name, tenantId: c.tenantId!, ids: new Set<number>() };
    for (const v of [f.before, f.after]) for (const id of idsOfCell(ref, v)) w.ids.add(id);
    if (w.ids.size > 0) wanted.set(key, w);
  });
  if (wanted.size === 0) return;
  const names = new Map<string, string>();
  for (const [key, w] of wanted) {
    const query = builder
      .selectFrom(w.table)
      .select(['id', w.name])
      .where('tenant_id', '=', w.tenantId)
      .where('id', 'in', [...w.ids])
      .compile();
    for (const row of (await run(query)).rows) {
      const name = row[w.name];
      if (typeof name === 'string' && name !== '') names.set(`${key}#${String(row.id)}`, name.slice(0, LIMITS.auditValueMax));
    }
  }
  // Rows this call deleted before naming them: their captured delete still holds the name.
  const deletedName = (ref: { table: string; name: string }, tenantId: number, id: number): string | undefined => {
    const gone = scope.changes.find((d) => d.op === 'delete' && d.table === ref.table && d.tenantId === tenantId && String(d.id) === String(id));
    const v = gone?.fields.find((f) => f.field === ref.name)?.before;
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  visit((ref, c, f) => {
    const nameOf = (id: number) => names.get(`${ref.table}.${ref.name}.${c.tenantId}#${id}`) ?? deletedName(ref, c.tenantId!, id);
    const nameOfCell = (v: AuditField['before']): string | undefined => {
      const ids = idsOfCell(ref, v);
      if (ids.length === 0) return undefined;
      // A list is named when any of its rows is; an unknown one among them as #id.
      if (ref.list) return ids.some((id) => nameOf(id) !== undefined) ? auditNameList(ids.map((id) => nameOf(id) ?? `#${id}`)).slice(0, LIMITS.auditValueMax) : undefined;
      return nameOf(ids[0]!);
    };
    const before = nameOfCell(f.before);
    const after = nameOfCell(f.after);
    if (before !== undefined) f.before_name = before;
    if (after !== undefined) f.after_name = after;
  });
}

/** The audited table a statement writes, if it writes one. */
function writtenTable(node: RootOperationNode): string | undefined {
  const target = UpdateQueryNode.is(node) ? targetOf(node.table) : DeleteQueryNode.is(node) ? targetOf(node.from.froms[0]) : InsertQueryNode.is(node) ? targetOf(node.into) : undefined;
  return target && isAudited(target.name) ? target.name : undefined;
}

/**
 * Runs one statement on its connection, capturing its row changes into the scope. With the scope's
 * pending call, the changes are written to audit_pending on the same connection: inside the statement's
 * transaction, or in one opened around the statement and its record when it runs outside any.
 */
async function capture(scope: AuditScope, compiler: QueryCompiler, builder: Builder, run: Run, query: CompiledQuery, inTransaction: boolean): Promise<QueryResult<unknown>> {
  const from = scope.changes.length;
  const moreBefore = scope.more;
  const pending = scope.pending && writtenTable(query.query) ? scope.pending : undefined;
  const own = pending !== undefined && !inTransaction;
  if (own) await run(CompiledQuery.raw('begin'));
  try {
    const result = await captureRows(scope, compiler, run, query);
    if (scope.changes.length > from) await nameReferences(scope, scope.changes.slice(from), run, builder);
    if (pending && (scope.changes.length > from || scope.more > moreBefore)) {
      const record = { scope_id: pending.id, call: JSON.stringify(pending.call), changes: JSON.stringify(scope.changes.slice(from)), more: scope.more - moreBefore, create_time: Date.now() };
      await run(builder.insertInto('audit_pending').values(record).compile());
    }
    if (own) await run(CompiledQuery.raw('commit'));
    return result;
  } catch (err) {
    if (own) await run(CompiledQuery.raw('rollback')).catch(() => undefined);
    throw err;
  }
}

/** Runs one statement, adding the rows it changed to the scope. */
async function captureRows(scope: AuditScope, compiler: QueryCompiler, run: Run, query: CompiledQuery): Promise<QueryResult<unknown>> {
  const node = query.query;
  const compile = (n: RootOperationNode) => compiler.compileQuery(n, query.queryId);
  if (UpdateQueryNode.is(node) || DeleteQueryNode.is(node)) {
    const update = UpdateQueryNode.is(node);
    const froms = update ? [node.table!, ...(node.from?.froms ?? [])] : [...node.from.froms, ...(node.using?.tables ?? [])];
    const target = targetOf(update ? node.table : node.from.froms[0]);
    if (!target || !isAudited(target.name) || node.limit || node.orderBy) return run(query);
    const before = (await run(compile(selectBefore(target, froms, node)))).rows;
    const result = await run(query);
    if (before.length === 0) return result;
    const kept = before.slice(0, LIMITS.auditChangesMax);
    if (update) {
      const key = (row: Row) => keyOf(target.name, row);
      const ids = kept.map(key).filter((v): v is number | string => v !== null);
      const after = ids.length === kept.length ? (await run(compile(selectByIds(target.table, ids)))).rows : [];
      const byId = new Map(after.map((r) => [String(key(r)), r]));
      for (const row of kept) {
        const now = byId.get(String(key(row)));
        if (now) record(scope, target.name, 'update', row, now);
      }
    } else {
      for (const row of kept) record(scope, target.name, 'delete', row, undefined);
    }
    // The statement touched more rows than were read: they are counted.
    const affected = Number(result.numAffectedRows ?? BigInt(before.length));
    if (affected > kept.length) scope.more += affected - kept.length;
    return result;
  }
  if (InsertQueryNode.is(node)) {
    const target = targetOf(node.into);
    const result = await run(query);
    if (!target || !isAudited(target.name)) return result;
    const affected = result.numAffectedRows;
    if (affected !== undefined && affected === 0n) return result;
    const rows = insertedRows(node);
    const returned = result.rows.length === rows.length ? result.rows : [];
    rows.forEach((row, i) => {
      // The id the database gave; a table keyed by another column has none (SQLite's insertId is its rowid).
      const id =
        keyColumnOf(target.name) !== 'id' ? null : (idOf(returned[i]) ?? (rows.length === 1 && result.insertId !== undefined && result.insertId > 0n ? Number(result.insertId) : null));
      record(scope, target.name, 'insert', undefined, id !== null && row.id === undefined ? { id, ...row } : row);
    });
    return result;
  }
  return run(query);
}

/** Puts the capture in front of a connection's executeQuery (wrapConnections calls it once per connection; pools reuse them). */
function wrapConnection(conn: DatabaseConnection, compiler: QueryCompiler, builder: Builder): DatabaseConnection {
  const inner = conn.executeQuery.bind(conn) as Run;
  // Whether the connection is inside a transaction (the drivers begin and end them with these statements).
  let inTransaction = false;
  const tracked: Run = async (query) => {
    const head = query.sql.trimStart().slice(0, 24).toLowerCase();
    try {
      const result = await inner(query);
      if (head.startsWith('begin') || head.startsWith('start transaction')) inTransaction = true;
      return result;
    } finally {
      if (head === 'commit' || (head.startsWith('rollback') && !head.startsWith('rollback to'))) inTransaction = false;
    }
  };
  conn.executeQuery = (<R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const scope = storage.getStore();
    if (!scope || scope.closed) return tracked(query) as Promise<QueryResult<R>>;
    return capture(scope, compiler, builder, tracked, query, inTransaction) as Promise<QueryResult<R>>;
  }) as DatabaseConnection['executeQuery'];
  return conn;
}

/** A dialect whose connections capture the row changes of queries run inside an audit scope (both databases). */
export function auditedDialect(dialect: Dialect): Dialect {
  const compiler = dialect.createQueryCompiler();
  const builder: Builder = new Kysely({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    },
  });
  return wrapConnections(dialect, (connection) => wrapConnection(connection, compiler, builder));
}

