import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/** Accounts, sessions, codes, outbox and the tables the shell reads (messages, announcements). */
export function foundation(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('setting')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('account'), dialect)
        .addColumn('username', 'varchar(32)', (c) => c.notNull())
        .addColumn('username_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('nickname', 'varchar(32)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('phone', 'varchar(32)', (c) => c.unique())
        .addColumn('email', 'varchar(128)', (c) => c.unique())
        .addColumn('sign', 'varchar(16)', (c) => c.notNull().unique())
        .addColumn('domain', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('birthday', 'varchar(10)')
        .addColumn('industry', 'varchar(8)')
        .addColumn('occupation', 'varchar(32)')
        .addColumn('software_auth_source', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth_quagga', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth_quagga_advanced', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth_default_route', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('network_level', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('network_router_count', 'integer', (c) => c.notNull().defaultTo(10))
        .addColumn('network_center_count', 'integer', (c) => c.notNull().defaultTo(2))
        .addColumn('dns_quantity', 'integer', (c) => c.notNull().defaultTo(2))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('ram_role'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('note', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ram_role_tenant').on('ram_role').columns(['tenant_id', 'id']).execute();

      await idColumn(db.schema.createTable('ram_account'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('username', 'varchar(32)', (c) => c.notNull())
        .addColumn('username_key', 'varchar(32)', (c) => c.notNull())
        .addColumn('nickname', 'varchar(32)', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => c.notNull().references('ram_role.id'))
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('login_time', 'bigint')
        .addUniqueConstraint('ram_account_tenant_username', ['tenant_id', 'username_key'])
        .execute();

      await db.schema
        .createTable('session')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('ram_id', 'integer', (c) => c.references('ram_account.id').onDelete('cascade'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('refresh_until', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('session_tenant').on('session').columns(['tenant_id', 'ram_id']).execute();

      await idColumn(db.schema.createTable('verification_code'), dialect)
        .addColumn('destination', 'varchar(128)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('verification_code_lookup')
        .on('verification_code')
        .columns(['destination', 'purpose', 'create_time'])
        .execute();

      await db.schema
        .createTable('recovery')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('verified_channel', 'varchar(8)')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('outbox'), dialect)
        .addColumn('channel', 'varchar(8)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(128)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('code', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_recipient').on('outbox').columns(['recipient', 'id']).execute();

      await idColumn(db.schema.createTable('message'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('message_tenant').on('message').columns(['tenant_id', 'status']).execute();

      await idColumn(db.schema.createTable('announcement'), dialect)
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('tag', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('release_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcement_release').on('announcement').column('release_time').execute();

    },
    async down(db: Kysely<unknown>) {
      for (const t of ['announcement', 'message', 'outbox', 'recovery', 'verification_code', 'session', 'ram_account', 'ram_role', 'account', 'setting']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
