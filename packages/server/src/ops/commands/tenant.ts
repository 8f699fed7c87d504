import type { Ctx } from '../../core/context';
import { OpsError } from '../command';

/** The tenant a command names, by id (digits) or username (any case). */
export async function findTenant(ctx: Ctx, ref: string) {
  const q = ctx.db.selectFrom('account').select(['id', 'username', 'network_router_use']);
  const row = /^\d+$/.test(ref) ? await q.where('id', '=', Number(ref)).executeTakeFirst() : await q.where('username_key', '=', ref.toLowerCase()).executeTakeFirst();
  if (!row) throw new OpsError(`no tenant ${ref}`);
  return row;
}
