/** Rows per IN (…) list, well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** `size`: fewer for multi-row inserts, whose every row binds several parameters. */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
