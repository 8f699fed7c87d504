import type { Ctx } from '../../core/context';
import { OpsError } from '../command';

/** The tenant a command names, by id (digits) or username (any case). */
export async function findTenant(ctx: Ctx, ref: string) {
  const q = ctx.db.selectFrom('account').select(['id', 'username', 'network_router_use']);
  const row = /^\d+$/.test(ref) ? await q.where('id', '=', Number(ref)).executeTakeFirst() : await q.where('username_key', '=', ref.toLowerCase()).executeTakeFirst();
  if (!row) throw new OpsError(`no tenant ${ref}`);
  return row;
}

/** --tenant of a list across tenants. */
export const TENANT_FILTER = { tenant: { help: "only this tenant's (id or username)" } };

/** The id of the tenant a --tenant filter names; undefined for every tenant. */
export const tenantFilterId = async (ctx: Ctx, ref: string | undefined) => (ref === undefined ? undefined : (await findTenant(ctx, ref)).id);
