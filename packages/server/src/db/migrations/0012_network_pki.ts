import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The per-network PKI (compiler/pki.ts, compiler/pkiStore.ts).
 * - network_pki: a network's CA certificate, its private key sealed (core/secretBox.ts), and the CRL;
 * - member_certificate: every certificate issued to a member in a network, its key sealed, its end
 *   (not_after, ms) for the renewal job, and revoked_at once the member left the network.
 * A certificate row has no foreign key to member: it outlives a deleted member, since the CRL is built
 * from the revoked rows and a revoked serial must stay in it. It goes with its network.
 */
export function networkPki(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('network_pki')
        .addColumn('network_id', 'integer', (c) => c.primaryKey().references('network.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('ca_cert', 'text', (c) => c.notNull())
        .addColumn('ca_key_sealed', 'text', (c) => c.notNull())
        .addColumn('crl', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('member_certificate'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull())
        .addColumn('role', 'varchar(8)', (c) => c.notNull())
        .addColumn('common_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('serial', 'varchar(40)', (c) => c.notNull())
        .addColumn('cert', 'text', (c) => c.notNull())
        .addColumn('key_sealed', 'text', (c) => c.notNull())
        .addColumn('not_after', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_certificate_serial').unique().on('member_certificate').columns(['network_id', 'serial']).execute();
      await db.schema.createIndex('member_certificate_member').on('member_certificate').columns(['network_id', 'member_id']).execute();
      await db.schema.createIndex('member_certificate_due').on('member_certificate').columns(['revoked_at', 'not_after']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['member_certificate', 'network_pki']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
