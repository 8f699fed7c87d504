import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Bulk import as a job (issue 16): one row per import with its progress, and one row per spreadsheet
 * row done, written with the members that row added, so a run that stops resumes where it was.
 */
export function memberImport(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('member_import'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** running | done | failed (contract IMPORT_STATE). */
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        /** The uploaded workbook in storage (the tenant's), removed when the import ends. */
        .addColumn('file_key', 'varchar(128)', (c) => c.notNull())
        /** Data rows of the sheet; rows done so far (in sheet order) and how many of those were refused. */
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fail', 'integer', (c) => c.notNull().defaultTo(0))
        /** Written by the job at each batch; a running import older than the lease is taken as lost. */
        .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('finish_time', 'bigint')
        .execute();
      // One running import per tenant, whatever the instances do.
      await db.schema.createIndex('member_import_running').unique().on('member_import').column('tenant_id').where(sql.ref('state'), '=', 'running').execute();
      await db.schema.createIndex('member_import_tenant').on('member_import').columns(['tenant_id', 'id']).execute();

      await idColumn(db.schema.createTable('member_import_row'), dialect)
        .addColumn('import_id', 'integer', (c) => c.notNull().references('member_import.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** The spreadsheet row (2 is the first under the header). */
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('router_name', 'text', (c) => c.notNull())
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('msg', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_import_row_import').unique().on('member_import_row').columns(['import_id', 'row']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['member_import_row', 'member_import']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
