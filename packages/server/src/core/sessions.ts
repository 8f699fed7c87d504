import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/types';

/**
 * Whose sessions: the main account's (ramId null), one sub-account's, or `every` account of the tenant
 * (its main account and every sub-account: the operator disables the tenant).
 */
export interface SessionHolder {
  tenantId: number;
  ramId: number | null | 'every';
}

/**
 * A session's sign-in: the first row of its chain. A row a release before migration 0037 wrote (during
 * a rolling upgrade) has no family and is a sign-in of its own.
 */
export const familyOf = (row: { id: string; family_id: string | null }): string => row.family_id ?? row.id;

/** familyOf in SQL, for a query on `session` (optionally under an alias). */
export const familyRef = (eb: ExpressionBuilder<Database, 'session'>) => eb.fn.coalesce('session.family_id', 'session.id');

/** The rows that are sign-ins: their own family, or no family at all (familyOf). */
const isSignIn = (eb: ExpressionBuilder<Database, 'session'>) => eb.or([eb('session.family_id', 'is', null), eb('session.family_id', '=', eb.ref('session.id'))]);

/** The holder's rows (the session_tenant index: tenant, then sub-account). */
export const heldBy = (holder: SessionHolder) => (eb: ExpressionBuilder<Database, 'session'>) => {
  const tenant = eb('session.tenant_id', '=', holder.tenantId);
  if (holder.ramId === 'every') return tenant;
  return eb.and([tenant, holder.ramId === null ? eb('session.ram_id', 'is', null) : eb('session.ram_id', '=', holder.ramId)]);
};

/**
 * Ends every live session of one holder, but `except` (the session making the change goes on, with the
 * rest of its sign-in's chain), in the caller's transaction when it passes one. Modules and ops end
 * sessions only through this (and TokenService the caller's own); the session table is core's.
 */
export async function revokeSessions(db: Db, holder: SessionHolder, opts: { except?: string } = {}): Promise<void> {
  const now = Date.now();
  const keptRow = opts.except === undefined ? undefined : await db.selectFrom('session').select(['id', 'family_id']).where('id', '=', opts.except).executeTakeFirst();
  const kept = keptRow && familyOf(keptRow);
  // Every sign-in of the holder ends (so a token a racing refresh issues ends with it), then every token.
  await db
    .updateTable('session')
    .set({ ended_at: now })
    .where(heldBy(holder))
    .where(isSignIn)
    .$if(kept !== undefined, (qb) => qb.where('session.id', '!=', kept!))
    .where('session.ended_at', 'is', null)
    .execute();
  await db
    .updateTable('session')
    .set({ revoked_at: now })
    .where(heldBy(holder))
    .$if(kept !== undefined, (qb) => qb.where((eb) => eb(familyRef(eb), '!=', kept!)))
    .where('session.revoked_at', 'is', null)
    .execute();
}
