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
  const now = Date.now();
  const kept = opts.except === undefined ? undefined : await db.selectFrom('session').select('family_id').where('id', '=', opts.except).executeTakeFirst();
  // Every sign-in of the account ends (so a token a racing refresh issues ends with it), then every token.
  await db
    .updateTable('session')
    .set({ ended_at: now })
    .where('tenant_id', '=', holder.tenantId)
    .where((eb) => (holder.ramId === null ? eb('ram_id', 'is', null) : eb('ram_id', '=', holder.ramId)))
    .whereRef('id', '=', 'family_id')
    .$if(kept !== undefined, (qb) => qb.where('family_id', '!=', kept!.family_id))
    .where('ended_at', 'is', null)
    .execute();
  await db
    .updateTable('session')
    .set({ revoked_at: now })
    .where('tenant_id', '=', holder.tenantId)
    .where((eb) => (holder.ramId === null ? eb('ram_id', 'is', null) : eb('ram_id', '=', holder.ramId)))
    .$if(kept !== undefined, (qb) => qb.where('family_id', '!=', kept!.family_id))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every live session of a tenant: its main account's and every sub-account's (the operator disables it). */
export async function revokeTenantSessions(db: Db, tenantId: number): Promise<void> {
  const now = Date.now();
  await db.updateTable('session').set({ ended_at: now }).where('tenant_id', '=', tenantId).whereRef('id', '=', 'family_id').where('ended_at', 'is', null).execute();
  await db.updateTable('session').set({ revoked_at: now }).where('tenant_id', '=', tenantId).where('revoked_at', 'is', null).execute();
}
