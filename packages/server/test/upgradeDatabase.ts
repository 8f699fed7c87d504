import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { connect, type DbHandle, type Dialect } from '../src/db/connect';

/**
 * An empty database of its own, not migrated (upgrade tests build it to an earlier step themselves):
 * SQLite in memory, or a fresh PostgreSQL schema of TEST_DATABASE_URL. drop() closes and removes it.
 */
export async function emptyDatabase(dialect: Dialect): Promise<{ handle: DbHandle; open(): DbHandle; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = connect({ dataDir: os.tmpdir(), sqliteFile: ':memory:' });
    return {
      handle,
      open: () => {
        throw new Error('an in-memory SQLite has one connection');
      },
      drop: () => handle.close(),
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 1 });
  await admin.db.schema.createSchema(schema).execute();
  const open = () => connect({ databaseUrl: url, dataDir: os.tmpdir(), schema, poolSize: 4 });
  const handle = open();
  return {
    handle,
    open,
    drop: async () => {
      await handle.close();
      await admin.db.schema.dropSchema(schema).cascade().execute();
      await admin.close();
    },
  };
}
