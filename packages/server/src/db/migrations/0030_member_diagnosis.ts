import type { Kysely, Migration } from 'kysely';

/**
 * Device diagnostics and confirmed delivery (issue 18): what the gateway last knew of a member's device
 * (its last refused hello, its last session's end) and when a device acknowledged its current config.
 */
export function memberDiagnosis(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('member_diagnosis')
        .addColumn('member_id', 'integer', (c) => c.primaryKey().references('member.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** The last refused hello that named this member: when, from where, and its close code. */
        .addColumn('fail_time', 'bigint')
        .addColumn('fail_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('fail_code', 'integer', (c) => c.notNull().defaultTo(0))
        /** The last session's end: the device's last message, its address, and why the session closed. */
        .addColumn('seen_time', 'bigint')
        .addColumn('seen_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('close_code', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('close_reason', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('member_diagnosis_tenant').on('member_diagnosis').column('tenant_id').execute();
      /** When the device acknowledged applied_version (null: never); the version was made at update_time. */
      await db.schema.alterTable('member_config').addColumn('applied_time', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('member_diagnosis').ifExists().execute();
    },
  };
}
