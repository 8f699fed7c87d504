import { M, type listNetworks, type NetworkItem, type NetworkQuota } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import { allowedNetworks, ensureNetworkAllowed } from '../../core/networks';
import { contains, countOf, offsetOf, totalOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { planOf } from '../../domain/plan';
import { networkStatusOf, quotaOf } from './quota';

type ListQuery = z.output<typeof listNetworks.query>;

/*
 * Reading networks (spec 2), filtered by the tenant. Reads also hide the networks outside a
 * sub-account's role list (core/networks.ts: the guard applies it to permission routes, but GET
 * routes with access 'user' pass the guard). The changes are in service.ts.
 */

/** The tenant's network by number; 403 outside the caller's role list, 204 when there is none. */
export async function networkOf(db: Db, actor: Actor, networkNumber: string) {
  ensureNetworkAllowed(actor, networkNumber);
  const net = await db
    .selectFrom('network')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('network_number', '=', networkNumber)
    .executeTakeFirst();
  if (!net) throw notFound(M.networkNotFound);
  return net;
}

/**
 * Search matches the name or the number; 10 a page, newest first; a role with networks sees those
 * only. The page's query brings along each network's member count, its resource's name, the plan's
 * use (the status), and without a search the total: one round trip on PostgreSQL, a second only to
 * count the matches of a search that fills its page.
 */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: NetworkItem[]; count: number }> {
  const allowed = allowedNetworks(actor);
  const filtered = ctx.db
    .selectFrom('network')
    .where('network.tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network.network_number', 'in', allowed!))
    .$if(!!q.search, (qb) =>
      qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('network.network_name'), q.search!), contains(ctx.dialect, eb.ref('network.network_number'), q.search!)])),
    );
  const columns = (qb: typeof filtered) =>
    qb
      .innerJoin('account', 'account.id', 'network.tenant_id')
      .select(['network.id', 'network.network_number', 'network.network_name', 'network.network_type', 'network.create_time', 'account.network_router_use', 'account.network_router_count'])
      .select((eb) => [
        eb.selectFrom('network_member as nm').select((c) => c.fn.countAll<number>().as('n')).whereRef('nm.network_id', '=', 'network.id').as('member_count'),
        eb.selectFrom('network_fr as fr').select('fr.name').whereRef('fr.id', '=', 'network.network_fr_id').whereRef('fr.tenant_id', '=', 'network.tenant_id').as('fr_name'),
      ])
      .orderBy('network.id', 'desc');
  // The page's ids first, then its columns: PostgreSQL would count the members of every network the offset skips.
  const offset = offsetOf(q.page, q.limit);
  const onPage = ctx.db
    .selectFrom('network')
    .where('network.tenant_id', '=', actor.tenantId)
    .where('network.id', 'in', filtered.select('network.id').orderBy('network.id', 'desc').limit(q.limit).offset(offset));
  // Unsearched, the total comes in the page's own query; searched, a page that is not full tells it.
  const rows = await columns(onPage)
    .$if(!q.search, (qb) => qb.select(() => filtered.select((eb) => eb.fn.countAll<number>().as('n')).as('total')))
    .execute();
  const count = !q.search && rows.length > 0 ? Number(rows[0]!.total) : await totalOf(rows.length, offset, q.limit, () => countOf(filtered));
  return {
    rows: rows.map((r) => ({
      network_number: r.network_number,
      network_name: r.network_name,
      network_type: r.network_type,
      member_count: Number(r.member_count ?? 0),
      fr_name: r.fr_name ?? '',
      network_status: networkStatusOf(r),
      create_time: formatTime(r.create_time, ctx.config.timezone),
    })),
    count,
  };
}

/** Every network the caller may see, by name, for selects (roles, LDAP). */
export async function select(ctx: Ctx, actor: Actor): Promise<{ network_number: string; network_name: string }[]> {
  const allowed = allowedNetworks(actor);
  return ctx.db
    .selectFrom('network')
    .select(['network_number', 'network_name'])
    .where('tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network_number', 'in', allowed!))
    .orderBy('network_name')
    .orderBy('id')
    .execute();
}

export async function config(ctx: Ctx, actor: Actor): Promise<NetworkQuota> {
  return quotaOf(await planOf(ctx.db, actor.tenantId));
}
