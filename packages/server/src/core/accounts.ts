import { M, type SendType } from '@hublink/contract';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connect';
import type { AccountTable } from '../db/types';
import { invalid } from './errors';
import { hashPassword } from './passwords';
import { revokeSessions } from './sessions';

/*
 * A main account's row (table account) is its tenant: the guard reads it, lockTenant locks it, the
 * plan lives on it (core/plan.ts), and two modules change it: auth registers and recovers accounts,
 * account edits its own. So the row is core's, and they write it only through these functions.
 */

export async function insertAccount(db: Db, values: Insertable<AccountTable>): Promise<void> {
  await db.insertInto('account').values(values).execute();
}

/** What an account's owner changes of its row; the plan and the status are the operator's. */
export type AccountChange = Pick<Updateable<AccountTable>, 'nickname' | 'birthday' | 'industry' | 'occupation' | 'phone' | 'email' | 'sign'>;

export async function changeAccount(db: Db, tenantId: number, change: AccountChange): Promise<void> {
  await db
    .updateTable('account')
    .set({ ...change, update_time: Date.now() })
    .where('id', '=', tenantId)
    .execute();
}

/** A new password ends the account's sessions, all of them or all but `except` (the one making the change). */
export async function setAccountPassword(db: Db, tenantId: number, password: string, opts: { except?: string } = {}): Promise<void> {
  await db
    .updateTable('account')
    .set({ password_hash: await hashPassword(password), update_time: Date.now() })
    .where('id', '=', tenantId)
    .execute();
  await revokeSessions(db, { tenantId, ramId: null }, opts);
}

/** Refuses a phone or email (as stored: destinationKey) that another main account has bound. */
export async function ensureContactFree(db: Db, tenantId: number, type: SendType, key: string): Promise<void> {
  const other = await db.selectFrom('account').select('id').where(type, '=', key).where('id', '!=', tenantId).executeTakeFirst();
  if (other) throw invalid(type === 'phone' ? M.phoneBoundElsewhere : M.emailBoundElsewhere);
}
