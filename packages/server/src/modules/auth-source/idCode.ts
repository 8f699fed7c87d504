import { randomInt } from 'node:crypto';
import { LIMITS } from '@hublink/contract';
import type { Ctx } from '../../core/context';

/** Letters and digits no one mistakes for another when reading a code aloud (no I, O, 0, 1): 32 of them. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const newIdCode = () => Array.from({ length: LIMITS.authSourceCodeLength }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/**
 * The tenant's ID code, created on first use: 8 characters of 32 (about 10^12 codes), unique across
 * tenants, never changing. Two first uses at once agree on the one that was stored first; a code some
 * other tenant holds already is drawn again.
 */
export async function idCodeOf(ctx: Ctx, tenantId: number): Promise<string> {
  const stored = () => ctx.db.selectFrom('auth_source_code').select('code').where('tenant_id', '=', tenantId).executeTakeFirst();
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await stored();
    if (row) return row.code;
    await ctx.db
      .insertInto('auth_source_code')
      .values({ tenant_id: tenantId, code: newIdCode(), create_time: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const row = await stored();
  if (!row) throw new Error(`no ID code could be stored for tenant ${tenantId}`);
  return row.code;
}

/** The tenant an ID code names, if any. */
export async function tenantOfCode(ctx: Ctx, code: string): Promise<number | undefined> {
  const row = await ctx.db.selectFrom('auth_source_code').select('tenant_id').where('code', '=', code).executeTakeFirst();
  return row?.tenant_id;
}
