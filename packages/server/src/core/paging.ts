import { sql, type Expression, type SqlBool } from 'kysely';

/** Offset of a 1-based page. */
export const offsetOf = (page: number, limit: number) => (page - 1) * limit;

/** The search box's condition: the column contains the text, case-insensitively, with % and _ taken literally. */
export function contains(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}
