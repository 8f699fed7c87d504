import { auditActionName, LIMITS, type AuditField, type AuditKind, type AuditObject, type AuditRowChange, type DomainEvent } from '@hublink/contract';

/*
 * What an audit entry says of a call (issue 18): which fields of a row changed and how their values
 * read (secrets only as changed, binary as its size, long text cut), a row's name, the entry's kind and
 * object, and an operator command's entries. The capture (core/audit.ts) finds the rows; which tables
 * it looks at and their keys are db/owners.ts's.
 */

type Row = Record<string, unknown>;

/** One captured row change, with the tenant the row belongs to when it has a tenant_id (or is an account). */
export interface CapturedChange extends AuditRowChange {
  tenantId: number | null;
  /** The row's name-like column (its network, member, account name), whether it changed or not. */
  name: string;
}

/** Columns whose values are never written into an entry, only that they changed. */
const SECRET_COLUMN = /password|passwd|pwd|secret|key|token|hash|salt|sealed|private|credential/i;
export const isSecretColumn = (column: string) => SECRET_COLUMN.test(column);

type Cell = string | number | boolean | null;

/** A value as an entry keeps it: binary as its size, long text cut to LIMITS.auditValueMax. */
export function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint8Array) return `[${v.byteLength} bytes]`;
  const text = v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > LIMITS.auditValueMax ? `${text.slice(0, LIMITS.auditValueMax)}…` : text;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'bigint' || typeof b === 'bigint') return String(a) === String(b);
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** The fields that differ between two versions of a row (either may be absent: an insert, a delete). */
export function diffRow(before: Row | undefined, after: Row | undefined): AuditField[] {
  const columns = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: AuditField[] = [];
  for (const field of columns) {
    const b = before?.[field];
    const a = after?.[field];
    if (before && after && same(b, a)) continue;
    if (!before && (a === null || a === undefined)) continue;
    if (!after && (b === null || b === undefined)) continue;
    out.push(isSecretColumn(field) ? { field, before: null, after: null, secret: true } : { field, before: cellOf(b), after: cellOf(a) });
  }
  return out;
}

/** Columns that name a row, in the order they are tried. */
const NAME_COLUMNS = ['name', 'network_name', 'router_name', 'username', 'title', 'nickname', 'domain', 'network_number', 'email'];
export const nameOf = (row: Row | undefined): string => {
  for (const c of NAME_COLUMNS) {
    const v = row?.[c];
    if (typeof v === 'string' && v !== '') return v.slice(0, LIMITS.auditValueMax);
  }
  return '';
};

const KIND_OF_OP = { insert: 'create', update: 'update', delete: 'delete' } as const;

/** An entry's kind: what the call did to its main object (its first row change). */
export const kindOf = (changes: readonly AuditRowChange[]): AuditKind => (changes[0] ? KIND_OF_OP[changes[0].op] : 'other');

/** What an entry says about a call: its object (from its first row change, else the network or member its body names) and its changes. */
export function summary(changes: readonly CapturedChange[], body: unknown): { object: AuditObject; changes: AuditRowChange[] } {
  const first = changes[0];
  const named = (key: string): string => {
    const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, LIMITS.auditValueMax) : '';
  };
  // A row without a name of its own (a network's member, a member's command) is named by the member its call names.
  const object: AuditObject = first
    ? { type: first.table, id: first.id === null ? '' : String(first.id), name: first.name || named('router_name') }
    : named('network_number')
      ? { type: 'network', id: named('network_number'), name: '' }
      : named('router_name')
        ? { type: 'member', id: '', name: named('router_name') }
        : { type: '', id: '', name: '' };
  return {
    object,
    changes: changes.map(({ table, id, name, op, fields }) => ({ table, id, ...(name ? { name } : {}), op, fields })),
  };
}

/**
 * The operation.performed events of an operator's command (hublink ops): one per tenant whose rows
 * it changed (rows without a tenant, such as announcements for everyone, are in no tenant's trail).
 * A command that changed nothing announces nothing. The command's own answer (call.msg, English, for
 * the operator's terminal, and it may carry a secret shown once) stays out of the tenant's trail: the
 * entry's msg is the command's Chinese name, and no address or client is the tenant's to see.
 */
export function operatorEvents(scope: { changes: readonly CapturedChange[]; more: number }, call: { path: string; msg: string; operator: string }): DomainEvent<'operation.performed'>[] {
  const byTenant = new Map<number, CapturedChange[]>();
  for (const c of scope.changes) if (c.tenantId !== null) byTenant.set(c.tenantId, [...(byTenant.get(c.tenantId) ?? []), c]);
  return [...byTenant].map(([tenantId, changes]) => ({
    type: 'operation.performed',
    tenant_id: tenantId,
    ram_id: null,
    path: call.path,
    msg: auditActionName(call.path),
    who: 'operator',
    operator: call.operator,
    ip: '',
    user_agent: '',
    source: 'cli',
    method: 'CLI',
    ...summary(changes, {}),
    // Only the rows the scope kept are known by tenant; the ones beyond are counted on each entry.
    more: scope.more,
  }));
}
