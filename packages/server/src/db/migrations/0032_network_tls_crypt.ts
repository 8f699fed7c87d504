import type { Kysely, Migration } from 'kysely';

/**
 * A network's OpenVPN tls-crypt key (issue 29), sealed like its CA key (core/secretBox.ts). Nullable:
 * the rows of networks made before it, and of those a running older release makes during a rolling
 * upgrade, get their key the first time it is needed (compiler/pkiStore.ts, ensureNetworkCa).
 */
export function networkTlsCrypt(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('network_pki').addColumn('tls_crypt_sealed', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('network_pki').dropColumn('tls_crypt_sealed').execute();
    },
  };
}
