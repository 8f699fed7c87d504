import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Help documents and client downloads (issue 15): the help menu (sections and documents, each named by
 * its path in the handbook's folder so a re-import keeps its id), each document's rendered HTML, and the
 * client releases the operator publishes.
 */
export function documents(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('document_node'), dialect)
        /** 'doc:<file path>' for a document, 'section:<titles from the top>' for a section. */
        .addColumn('path', 'varchar(512)', (c) => c.notNull().unique())
        /** The section it is in; 0 at the top. */
        .addColumn('fid', 'integer', (c) => c.notNull())
        .addColumn('title', 'varchar(64)', (c) => c.notNull())
        /** 1 section, 2 document (spec 3 §3). */
        .addColumn('type', 'integer', (c) => c.notNull())
        /** Position in the whole menu, depth first: the order of the tree and of previous/next. */
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('document_node_sort').on('document_node').columns(['sort']).execute();

      await db.schema
        .createTable('document_page')
        .addColumn('node_id', 'integer', (c) => c.primaryKey().references('document_node.id').onDelete('cascade'))
        /** Rendered from Markdown and sanitised (core/richText.ts). */
        .addColumn('content', 'text', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('client_release'), dialect)
        /** windows | macos | android | ios | linux */
        .addColumn('platform', 'varchar(16)', (c) => c.notNull())
        /** Linux only: cli | gui; '' otherwise. */
        .addColumn('panel', 'varchar(8)', (c) => c.notNull().defaultTo(''))
        /** Linux only: amd64 | arm64 | armv7 | loong64; '' otherwise. */
        .addColumn('arch', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('notes', 'text', (c) => c.notNull())
        /** A package kept in storage (tenant 0): its key, its name for the browser, its bytes; or null. */
        .addColumn('file_key', 'varchar(128)')
        .addColumn('file_name', 'varchar(128)')
        .addColumn('file_size', 'bigint')
        /** Or where the package is published (an app store): the download answers a redirect. */
        .addColumn('url', 'varchar(1024)')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('client_release_newest').on('client_release').columns(['platform', 'panel', 'arch', 'create_time']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['client_release', 'document_page', 'document_node']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
