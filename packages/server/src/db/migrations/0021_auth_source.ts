import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Third-party sign-in sources (issue 14): a tenant's enterprise WeChat, Feishu and DingTalk apps (the
 * secret sealed with the secret box), the tenant's ID code that a member's client enters to find them,
 * and which provider identity each member a source created belongs to.
 */
export function authSource(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('auth_source'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** wechat | feishu | dingtalk; never changes. */
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        /** name lower-cased: unique in the tenant. */
        .addColumn('name_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('app_id', 'varchar(128)', (c) => c.notNull())
        /** Sealed (core/secretBox.ts), never in the clear. */
        .addColumn('app_secret', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('corp_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        /** 0 disabled, 1 enabled. */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_source_tenant').on('auth_source').columns(['tenant_id', 'id']).execute();
      await db.schema.createIndex('auth_source_name').unique().on('auth_source').columns(['tenant_id', 'name_key']).execute();

      await db.schema
        .createTable('auth_source_code')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('auth_source_member'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().unique().references('member.id').onDelete('cascade'))
        /** '<namespace>/<user id>': the provider's organisation and the user's id in it. */
        .addColumn('external_key', 'varchar(320)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_source_member_identity').unique().on('auth_source_member').columns(['source_id', 'external_key']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['auth_source_member', 'auth_source_code', 'auth_source']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
