import pg from 'pg';

/** Statement texts given a name, in all; a text seen after that runs unnamed. */
const MAX_NAMED = 2_000;
/**
 * Statements with more parameters run unnamed: they are batches (`in (…)` of a chunk, a multi-row
 * insert) whose text changes with the batch's length, which would fill the names with texts used once
 * and keep a plan of each in every connection; their planning is small beside their work.
 */
const MAX_PARAMETERS = 32;

/**
 * A statement that may not be prepared once and kept: schema changes (a prepared statement's plan
 * outlives them) and a star select, whose columns a later migration changes ("cached plan must not
 * change result type").
 */
const UNNAMEABLE = /^\s*(create|alter|drop|comment|grant|revoke|lock|vacuum|analyze|set|reset)\b|(^|[\s,(])(select|returning)\s+([\w"]+\.)?\*|,\s*([\w"]+\.)?\*/i;

const names = new Map<string, string>();

/** The name of a statement text, the same for every connection of this process; undefined: run it unnamed. */
export function statementName(text: string, parameters: number): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (names.size >= MAX_NAMED || parameters > MAX_PARAMETERS || UNNAMEABLE.test(text)) return undefined;
  const name = `hl${names.size}`;
  names.set(text, name);
  return name;
}

/**
 * A connection that prepares each statement text once and runs it by name after that. node-postgres
 * sends an unnamed statement with every query, and PostgreSQL parses and plans it every time: in the
 * console's mix (about ten short statements a request) that was a third of the database's CPU. Kysely
 * calls `query(text, values)`, so the name is added here.
 */
export class NamedStatementClient extends pg.Client {
  // pg's overloads cannot be named one by one here; what Kysely sends is (text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 ? statementName(text, values.length) : undefined;
    const call = super.query as (...a: unknown[]) => never;
    return name ? call.call(this, { name, text, values }) : call.apply(this, args);
  }
}
