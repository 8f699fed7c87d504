import { randomInt } from 'node:crypto';
import { LIMITS, M, type SendType } from '@hublink/contract';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connect';
import type { AccountTable } from '../db/types';
import { invalid } from '../core/errors';
import { hashPassword } from '../core/passwords';
import { revokeSessions } from '../core/sessions';

/*
 * A main account's row (table account) is its tenant: the guard reads it, lockTenant locks it, the
 * plan lives on it (core/plan.ts), and two modules change it: auth registers and recovers accounts,
 * account edits its own. So the row is core's, and they write it only through these functions. Its ID
 * code (auth_source_code) is made with it here; the auth-source module reads it.
 */

/** Letters and digits no one mistakes for another when reading a code aloud (no I, O, 0, 1): 32 of them. */
const ID_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const newIdCode = () => Array.from({ length: LIMITS.authSourceCodeLength }, () => ID_CODE_ALPHABET[randomInt(ID_CODE_ALPHABET.length)]).join('');

/**
 * Gives a tenant its ID code (what its staff type to sign in through a source, spec 3 §3) unless it has
 * one: 8 characters of 32 (about 10^12 codes), unique across tenants, never changing; a code another
 * tenant holds is drawn again. Made with the account, so reading it (a GET) never writes.
 */
export async function assignIdCode(db: Db, tenantId: number): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await db.insertInto('auth_source_code').values({ tenant_id: tenantId, code: newIdCode(), create_time: Date.now() }).onConflict((oc) => oc.doNothing()).execute();
    if (await db.selectFrom('auth_source_code').select('tenant_id').where('tenant_id', '=', tenantId).executeTakeFirst()) return;
  }
  throw new Error(`no ID code could be stored for tenant ${tenantId}`);
}

/** A new main account (its tenant) with its ID code; answers its id. */
export async function insertAccount(db: Db, values: Insertable<AccountTable>): Promise<number> {
  const { id } = await db.insertInto('account').values(values).returning('id').executeTakeFirstOrThrow();
  await assignIdCode(db, id);
  return id;
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
