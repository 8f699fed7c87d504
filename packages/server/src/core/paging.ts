import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/connect';

/** Offset of a 1-based page. */
export const offsetOf = (page: number, limit: number) => (page - 1) * limit;

/** A LIKE pattern for "contains the text", lowercased, with % and _ (and the escape) taken literally. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The search box's condition: the column contains the text, case-insensitively. SQLite's LIKE
 * ignores ASCII case by itself (its lower() knows no other letters either, and would cost a copy
 * of every value); PostgreSQL needs ILIKE.
 */
export function contains(dialect: Dialect, column: Expression<string | null>, text: string): Expression<SqlBool> {
  const pattern = containsPattern(text);
  return dialect === 'postgres' ? sql<SqlBool>`${column} ilike ${pattern} escape '\\'` : sql<SqlBool>`${column} like ${pattern} escape '\\'`;
}

/**
 * The total of a paged list: a page that is not full tells it (a search then scans once, not
 * twice); otherwise, or past the end, `count` is asked.
 */
export async function totalOf(rowsOnPage: number, offset: number, limit: number, count: () => Promise<number>): Promise<number> {
  return rowsOnPage < limit && (rowsOnPage > 0 || offset === 0) ? offset + rowsOnPage : count();
}

/** How many rows a filtered query has. */
export async function countOf<DB, TB extends keyof DB>(filtered: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  // Generic over the table, Kysely cannot name the selection: it is { n }.
  const row = (await filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: number | string };
  return Number(row.n);
}

/**
 * One page of a filtered list (`select` picks the columns and the order) and the list's total,
 * counted only when the page cannot tell it (see totalOf): by counting the filtered rows, or by
 * `count` when the caller knows a cheaper way (a total the database keeps).
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  at: { page: number; limit: number },
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  count: () => Promise<number> = () => countOf(filtered),
): Promise<{ rows: O[]; count: number }> {
  const offset = offsetOf(at.page, at.limit);
  const rows = await select(filtered).limit(at.limit).offset(offset).execute();
  return { rows, count: await totalOf(rows.length, offset, at.limit, count) };
}
