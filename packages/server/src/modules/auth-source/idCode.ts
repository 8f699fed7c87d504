import type { Ctx } from '../../core/context';
import { assignIdCode } from '../../domain/accounts';

/**
 * The tenant's ID code. Every account gets one when it is made (core/accounts.ts insertAccount, and
 * migration 0039 for the accounts before it), so this reads; a missing one is made all the same rather
 * than failing the page.
 */
export async function idCodeOf(ctx: Ctx, tenantId: number): Promise<string> {
  const stored = () => ctx.db.selectFrom('auth_source_code').select('code').where('tenant_id', '=', tenantId).executeTakeFirst();
  const row = await stored();
  if (row) return row.code;
  await assignIdCode(ctx.db, tenantId);
  return (await stored())!.code;
}

/** The tenant an ID code names, if any. */
export async function tenantOfCode(ctx: Ctx, code: string): Promise<number | undefined> {
  const row = await ctx.db.selectFrom('auth_source_code').select('tenant_id').where('code', '=', code).executeTakeFirst();
  return row?.tenant_id;
}
