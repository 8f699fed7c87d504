import type { DbHandle } from '../src/db/connect';
import { migrateToLatest, type HubMigration } from '../src/db/migrate';
import { readSchema, type Column, type TableShape } from './upgradeSeed';

const columnsOf = (t: TableShape) => new Map(t.columns.map((c) => [c.name, c]));
const narrower = (was: Column, now: Column) => was.type !== now.type || (was.length !== null && (now.length === null ? false : now.length < was.length));

/**
 * Applies the migrations after `baseline` one by one to a database at `baseline` and says where one
 * would break the release before it, still running beside it: a table or column gone (dropped or
 * renamed) without being declared `removes` after an earlier migration declared it `deprecates`, a
 * column's type changed or narrowed, a column made NOT NULL, a new NOT NULL column without a default
 * (the old release's inserts do not name it).
 */
export async function rollingViolations(handle: DbHandle, list: Record<string, HubMigration>, baseline: string): Promise<string[]> {
  const names = Object.keys(list).sort();
  await migrateToLatest(handle, undefined, { list, to: baseline });
  const out: string[] = [];
  const deprecated = new Set<string>();
  for (const name of names.filter((n) => n > baseline)) {
    const m = list[name]!;
    const before = new Map((await readSchema(handle)).map((t) => [t.name, t]));
    await migrateToLatest(handle, undefined, { list, to: name });
    const after = new Map((await readSchema(handle)).map((t) => [t.name, t]));
    const removed = (what: string, kind: string) => {
      if (!m.removes?.includes(what)) out.push(`${name} drops or renames ${kind} ${what}`);
      else if (!deprecated.has(what)) out.push(`${name} removes ${kind} ${what}, which no earlier migration deprecates`);
    };
    for (const [table, was] of before) {
      const now = after.get(table);
      if (!now) {
        removed(table, 'table');
        continue;
      }
      const cols = columnsOf(now);
      for (const c of was.columns) {
        const n = cols.get(c.name);
        if (!n) removed(`${table}.${c.name}`, 'column');
        else if (narrower(c, n)) out.push(`${name} changes the type of ${table}.${c.name} (${c.type}${c.length ? `(${c.length})` : ''} to ${n.type}${n.length ? `(${n.length})` : ''})`);
        else if (n.notNull && !c.notNull) out.push(`${name} makes ${table}.${c.name} not null`);
      }
      const old = columnsOf(was);
      for (const n of now.columns) {
        if (!old.has(n.name) && n.notNull && !n.hasDefault && !n.auto) out.push(`${name} adds ${table}.${n.name} not null without a default`);
      }
    }
    for (const d of m.deprecates ?? []) deprecated.add(d);
  }
  return out;
}
