import { fmt, LIMITS, M, type ApiTokenItem, type ApiTokenState, type createApiToken, type listApiTokens } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import { newApiToken } from '../../core/apiTokens';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { contains, pageOf } from '../../core/paging';
import { lockTenant } from '../../core/tenantLock';
import { formatTime } from '../../core/time';

type ListQuery = z.output<typeof listApiTokens.query>;
type CreateInput = z.output<typeof createApiToken.body>;

/*
 * Personal API tokens of a main account (issue 18). The token is answered once, by create; the
 * database keeps its SHA-256 (core/apiTokens.ts, which also authenticates calls made with it).
 * A revoked token's row stays (revoked_at), so the audit trail can still name it; it leaves the list.
 */

const DAY_MS = 86_400_000;

const live = (ctx: Ctx, actor: Actor) => ctx.db.selectFrom('api_token').where('api_token.tenant_id', '=', actor.tenantId).where('api_token.revoked_at', 'is', null);

interface Row {
  id: number;
  name: string;
  prefix: string;
  scope: string;
  role_id: number | null;
  role_name: string | null;
  create_time: number;
  expires_at: number;
  last_used_at: number | null;
  last_used_ip: string | null;
}

function toItem(ctx: Ctx, r: Row, now: number): ApiTokenItem {
  const tz = ctx.config.timezone;
  const scope = r.scope === 'role' ? 'role' : 'read';
  const state: ApiTokenState = r.expires_at <= now ? 'expired' : scope === 'role' && r.role_name === null ? 'role_deleted' : 'active';
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scope,
    role_id: scope === 'role' ? r.role_id : null,
    role_name: r.role_name ?? '',
    state,
    create_time: formatTime(r.create_time, tz),
    expire_time: formatTime(r.expires_at, tz),
    last_used_time: r.last_used_at === null ? '' : formatTime(r.last_used_at, tz),
    last_used_ip: r.last_used_ip ?? '',
  };
}

const columns = [
  'api_token.id',
  'api_token.name',
  'api_token.prefix',
  'api_token.scope',
  'api_token.role_id',
  'ram_role.name as role_name',
  'api_token.create_time',
  'api_token.expires_at',
  'api_token.last_used_at',
  'api_token.last_used_ip',
] as const;

const withRole = (ctx: Ctx, actor: Actor) =>
  live(ctx, actor).leftJoin('ram_role', (j) => j.onRef('ram_role.id', '=', 'api_token.role_id').onRef('ram_role.tenant_id', '=', 'api_token.tenant_id'));

export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: ApiTokenItem[]; count: number }> {
  const filtered = withRole(ctx, actor).$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('api_token.name'), q.search!)));
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(columns).orderBy('api_token.id', 'desc'));
  const now = Date.now();
  return { rows: rows.map((r) => toItem(ctx, r, now)), count };
}

/**
 * A new token: 422 without a role for scope 'role' or with a role that is not the tenant's, 422 when
 * the tenant already holds LIMITS.apiTokensPerTenant usable tokens (neither revoked nor expired).
 */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<ApiTokenItem & { token: string }> {
  const roleId = input.scope === 'role' ? (input.role_id ?? null) : null;
  if (input.scope === 'role' && roleId === null) throw invalid(M.apiTokenRoleRequired);
  const made = newApiToken();
  const now = Date.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    if (roleId !== null) {
      const role = await trx.selectFrom('ram_role').select('id').where('id', '=', roleId).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
      if (!role) throw invalid(M.apiTokenRoleMissing);
    }
    const { n } = await trx
      .selectFrom('api_token')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', actor.tenantId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    if (Number(n) >= LIMITS.apiTokensPerTenant) throw invalid(fmt(M.apiTokenQuotaFull, { n: LIMITS.apiTokensPerTenant }));
    const row = await trx
      .insertInto('api_token')
      .values({
        tenant_id: actor.tenantId,
        name: input.name,
        prefix: made.prefix,
        token_hash: made.hash,
        scope: input.scope,
        role_id: roleId,
        create_time: now,
        expires_at: now + input.expires_days * DAY_MS,
        revoked_at: null,
        last_used_at: null,
        last_used_ip: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  const row = await withRole(ctx, actor).select(columns).where('api_token.id', '=', id).executeTakeFirstOrThrow();
  return { ...toItem(ctx, row, now), token: made.token };
}

/** Revokes one of the tenant's tokens: 204 when it is not the tenant's or was revoked already. */
export async function revoke(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  const res = await ctx.db
    .updateTable('api_token')
    .set({ revoked_at: Date.now() })
    .where('id', '=', id)
    .where('tenant_id', '=', actor.tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound(M.apiTokenNotFound);
}
