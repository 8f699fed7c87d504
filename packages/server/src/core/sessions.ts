import type { Db } from '../db/connect';

/** One account's sessions: the main account's (ramId null) or one sub-account's. */
export interface SessionHolder {
  tenantId: number;
  ramId: number | null;
}

/**
 * Ends every live session of one account, but `except` (the session making the change goes on),
 * in the caller's transaction when it passes one. Modules end sessions only through this (and
 * TokenService for the caller's own); the session table is core's.
 */
export async function revokeSessions(db: Db, holder: SessionHolder, opts: { except?: string } = {}): Promise<void> {
  await db
    .updateTable('session')
    .set({ revoked_at: Date.now() })
    .where('tenant_id', '=', holder.tenantId)
    .where((eb) => (holder.ramId === null ? eb('ram_id', 'is', null) : eb('ram_id', '=', holder.ramId)))
    .$if(opts.except !== undefined, (qb) => qb.where('id', '!=', opts.except!))
    .where('revoked_at', 'is', null)
    .execute();
}
