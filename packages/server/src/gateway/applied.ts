import type { Db } from '../db/connect';

/** A device applied (or failed to apply) a network's config version, when the gateway heard it. */
export interface Applied {
  tenant_id: number;
  network_id: number;
  member_id: number;
  version: number;
  ok: boolean;
  error: string;
  at: number;
}

/** Stamps the acknowledgement on the member's config (written with others by group commit, messages.ts). */
export async function writeApplied(db: Db, a: Applied): Promise<void> {
  await db
    .updateTable('member_config')
    .set({ applied_version: a.version, applied_error: a.ok ? '' : a.error, applied_time: a.ok ? a.at : null })
    .where('network_id', '=', a.network_id)
    .where('member_id', '=', a.member_id)
    .where('tenant_id', '=', a.tenant_id)
    .execute();
}
