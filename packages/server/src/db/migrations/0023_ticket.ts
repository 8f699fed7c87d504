import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Support tickets (issue 15): a tenant's tickets, the dialogue of each (the tenant's replies and the
 * service's answers) and the images uploaded for them. An image is uploaded first (state 0, pending)
 * and attached to a ticket or an entry when that is written (1); a deleted ticket's images are
 * discarded (2). The objects live in ctx.storage; a job removes pending ones after a day and
 * discarded ones at once.
 */
export function ticket(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('support_ticket'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('ticket_number', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('title', 'varchar(64)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        /** 1 pending, 2 replied, 3 closed (SUPPORT_STATUS). */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        /** The sub-account that raised it (null: the main account); no foreign key, the ticket outlives it. */
        .addColumn('ram_id', 'integer')
        /** The raiser's name when it was raised. */
        .addColumn('raised_by', 'varchar(64)', (c) => c.notNull())
        /** The appraisal: null until the tenant rates the service. */
        .addColumn('grade', 'integer')
        .addColumn('appraise_content', 'text')
        .addColumn('appraise_time', 'bigint')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_ticket_tenant').on('support_ticket').columns(['tenant_id', 'create_time']).execute();
      await db.schema.createIndex('support_ticket_status').on('support_ticket').columns(['status', 'update_time']).execute();

      await idColumn(db.schema.createTable('support_dialogue'), dialect)
        .addColumn('ticket_id', 'integer', (c) => c.notNull().references('support_ticket.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** 'tenant' or 'service'. */
        .addColumn('reply_type', 'varchar(8)', (c) => c.notNull())
        .addColumn('ram_id', 'integer')
        /** The writer's name when it was written: the adviser's, or the tenant account's. */
        .addColumn('reply_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_dialogue_ticket').on('support_dialogue').columns(['ticket_id', 'id']).execute();

      await idColumn(db.schema.createTable('support_file'), dialect)
        /** The public id (32 random hex digits) that file_ids and src carry. */
        .addColumn('file_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** The object's key in ctx.storage, under the tenant. */
        .addColumn('storage_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        /** 0 pending (uploaded, not used yet), 1 attached, 2 discarded (its ticket was deleted). */
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ticket_id', 'integer', (c) => c.references('support_ticket.id').onDelete('set null'))
        /** The dialogue entry it belongs to; null for the ticket's own images. */
        .addColumn('dialogue_id', 'integer', (c) => c.references('support_dialogue.id').onDelete('set null'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_file_tenant').on('support_file').columns(['tenant_id', 'state']).execute();
      await db.schema.createIndex('support_file_ticket').on('support_file').columns(['ticket_id']).execute();
      await db.schema.createIndex('support_file_state').on('support_file').columns(['state', 'create_time']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('support_file').execute();
      await db.schema.dropTable('support_dialogue').execute();
      await db.schema.dropTable('support_ticket').execute();
    },
  };
}
