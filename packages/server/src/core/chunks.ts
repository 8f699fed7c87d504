/** Rows per IN (…) list, well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
