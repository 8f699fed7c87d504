import { createRequire } from 'node:module';
import path from 'node:path';
import type { Client as PgClient } from 'pg';

/*
 * The suite makes and drops a PostgreSQL schema for nearly every test file (a few thousand tables in a
 * run). Each drop leaves dead rows in the catalogue (pg_attribute, pg_depend, pg_class…), and the
 * machines this project runs on start PostgreSQL with autovacuum off: nothing removes them, from one
 * run to the next. Every migration and schema read scans those catalogues, so a machine that has run
 * the suite a few times runs it slower each time, until the migration tests time out. The runner
 * therefore compacts the catalogue before it starts (nothing else is connected then) and vacuums it
 * every minute while the files run, as autovacuum would.
 */

/** The catalogues a schema's tables, indexes, triggers and sequences write to. */
const CATALOGUES = ['pg_attribute', 'pg_depend', 'pg_class', 'pg_trigger', 'pg_index', 'pg_attrdef', 'pg_constraint', 'pg_type', 'pg_sequence', 'pg_proc', 'pg_inherits', 'pg_namespace', 'pg_description']
  .map((t) => `pg_catalog.${t}`)
  .join(', ');

const VACUUM_EVERY_MS = 60_000;

// pg is the server's dependency; the runner borrows it from there.
const requireFromServer = createRequire(path.resolve(import.meta.dirname, '../packages/server/package.json'));
const { Client } = requireFromServer('pg') as typeof import('pg');

/**
 * Compacts the test database's catalogue, then vacuums it every minute until the returned stop() is
 * called. Says what it did through `say`; a database it cannot reach (or may not vacuum) is left to the
 * tests, which report that themselves.
 */
export async function keepCatalogueSmall(url: string, say: (line: string) => void): Promise<() => Promise<void>> {
  const client: PgClient = new Client({ connectionString: url });
  try {
    await client.connect();
    const before = await catalogueBytes(client);
    const started = performance.now();
    await client.query(`vacuum full ${CATALOGUES}`);
    say(`PostgreSQL catalogue compacted: ${mb(before)} to ${mb(await catalogueBytes(client))} in ${Math.round(performance.now() - started)} ms`);
  } catch (e) {
    say(`PostgreSQL catalogue not compacted: ${e instanceof Error ? e.message : String(e)}`);
    await client.end().catch(() => {});
    return async () => {};
  }
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = client.query(`vacuum ${CATALOGUES}`).catch((e: unknown) => say(`PostgreSQL catalogue vacuum failed: ${e instanceof Error ? e.message : String(e)}`));
  }, VACUUM_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await client.end().catch(() => {});
  };
}

async function catalogueBytes(client: PgClient): Promise<number> {
  const r = await client.query<{ bytes: string }>(`select sum(pg_total_relation_size(c.oid))::bigint as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'pg_catalog' and c.relkind = 'r'`);
  return Number(r.rows[0]?.bytes ?? 0);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
