import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The device gateway's tables (issue 13): credentials devices sign in with after their first secret
 * check; the sessions that are open, with the instance holding each and that instance's heartbeat (so
 * a killed instance's sessions are closed by another, or by itself on restart); the connection log;
 * and the live columns the gateway keeps on members, links, commands, configs and online log rows.
 */
export function gateway(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('device_credential'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        /** sha256 (hex) of the credential; the credential itself is never stored. */
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('used_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('device_credential_member').on('device_credential').columns(['member_id']).execute();

      await db.schema
        .createTable('gateway_instance')
        .addColumn('instance', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('seen_time', 'bigint', (c) => c.notNull())
        .execute();

      // No foreign key on member: a deleted member's session still ends with its connect-log row.
      await db.schema
        .createTable('device_session')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull())
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('instance', 'varchar(128)', (c) => c.notNull())
        .addColumn('remote_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('remote_port', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('device_session_member').on('device_session').columns(['member_id']).execute();
      await db.schema.createIndex('device_session_instance').on('device_session').columns(['instance']).execute();

      await idColumn(db.schema.createTable('connect_log'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull())
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('remote_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('remote_port', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        /** 1 the session began, 0 it ended. */
        .addColumn('online', 'integer', (c) => c.notNull())
        .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      // One row per session and direction: a session's end is never written twice.
      await db.schema.createIndex('connect_log_session').unique().on('connect_log').columns(['session_id', 'online']).execute();
      await db.schema.createIndex('connect_log_tenant_time').on('connect_log').columns(['tenant_id', 'create_time']).execute();
      await db.schema.createIndex('connect_log_member_time').on('connect_log').columns(['tenant_id', 'router_name', 'create_time']).execute();

      await db.schema.alterTable('online_log').addColumn('session_id', 'varchar(36)', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('online_log').addColumn('device_key', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.createIndex('online_log_session').on('online_log').columns(['session_id', 'device_key']).execute();

      /** JSON list of the interfaces the device reported in its hello. */
      await db.schema.alterTable('member').addColumn('interfaces', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      /** Byte counters the device last reported (router detail input/out). */
      await db.schema.alterTable('member').addColumn('traffic_in', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('member').addColumn('traffic_out', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

      await db.schema.alterTable('member_command').addColumn('error', 'varchar(256)', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('member_config').addColumn('applied_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('member_config').addColumn('applied_error', 'varchar(256)', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['connect_log', 'device_session', 'gateway_instance', 'device_credential']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
