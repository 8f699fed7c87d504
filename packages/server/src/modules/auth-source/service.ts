import {
  AUTH_SOURCE_STATUS,
  AUTH_SOURCE_TYPE_LABELS,
  AUTH_SOURCE_TYPES,
  fmt,
  LIMITS,
  M,
  maskSecret,
  type AuthSourceDefaults,
  type AuthSourceDetail,
  type AuthSourceItem,
  type AuthSourceType,
  type authSourceCode,
  type createAuthSource,
  type editAuthSource,
  type listAuthSources,
  type DataOf,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { deleteMembers } from '../../domain/members';
import { contains, pageOf } from '../../core/paging';
import { lockTenant } from '../../core/tenantLock';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { idCodeOf } from './idCode';
import { callbackUrlOf } from './origin';
import { ensureFeature, openSecret, sealSecret, SOURCE_COLUMNS, type SourceRow } from './sources';

// The console's side of the sign-in sources (spec 3 §2, §4, §7): the ID code and defaults, the list,
// one source, create, edit, enable, disable, delete. Every call needs the tenant's feature flag.

type ListQuery = z.output<typeof listAuthSources.query>;
type CreateInput = z.output<typeof createAuthSource.body>;
type EditInput = z.output<typeof editAuthSource.body>;

/** Addresses as each provider's allow list takes several: enterprise WeChat separates them with ';'. */
const IP_SEPARATOR: Record<AuthSourceType, string> = { wechat: ';', feishu: ',', dingtalk: ',' };

/**
 * What the provider must know of us, per type: our egress addresses, and where it sends users back
 * (enterprise WeChat asks for the trusted domain, a host; Feishu and DingTalk for the redirect URL).
 */
function defaultsOf(ctx: Ctx, origin: string): Record<AuthSourceType, AuthSourceDefaults> {
  const callback = callbackUrlOf(origin);
  const of = (type: AuthSourceType, auth_domain: string) => ({ white_ip: ctx.config.egressIps.join(IP_SEPARATOR[type]), auth_domain });
  return { wechat: of('wechat', new URL(origin).host), feishu: of('feishu', callback), dingtalk: of('dingtalk', callback) };
}

/** GET /auth_source/code: the tenant's ID code, the type options and the defaults per type. */
export async function codeAndConfig(ctx: Ctx, actor: Actor, origin: string): Promise<DataOf<typeof authSourceCode>> {
  await ensureFeature(ctx.db, actor.tenantId);
  return {
    code: await idCodeOf(ctx, actor.tenantId),
    config: {
      type: AUTH_SOURCE_TYPES.map((value) => ({ value, label: AUTH_SOURCE_TYPE_LABELS[value] })),
      default: defaultsOf(ctx, origin),
    },
  };
}

const toItem = (ctx: Ctx, r: SourceRow): AuthSourceItem => ({
  id: r.id,
  type: r.type as AuthSourceType,
  name: r.name,
  app_id: r.app_id,
  agent_id: r.agent_id,
  corp_id: r.corp_id,
  status: r.status === AUTH_SOURCE_STATUS.disabled ? AUTH_SOURCE_STATUS.disabled : AUTH_SOURCE_STATUS.enabled,
  create_time: formatTime(r.create_time, ctx.config.timezone),
});

const sourcesOf = (db: Db, tenantId: number) => db.selectFrom('auth_source').where('tenant_id', '=', tenantId);

/** One source of the tenant (204 when it has none of that id). */
async function findSource(db: Db, tenantId: number, id: number): Promise<SourceRow> {
  const row = await sourcesOf(db, tenantId).select(SOURCE_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(M.authSourceNotFound);
  return row;
}

export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: AuthSourceItem[]; count: number }> {
  await ensureFeature(ctx.db, actor.tenantId);
  const text = q.search;
  const filtered = sourcesOf(ctx.db, actor.tenantId).$if(!!text, (qb) =>
    qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('name'), text!), contains(ctx.dialect, eb.ref('app_id'), text!)])),
  );
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(SOURCE_COLUMNS).orderBy('id', 'desc'));
  return { rows: rows.map((r) => toItem(ctx, r)), count };
}

/** One source with its secret masked. */
export async function info(ctx: Ctx, actor: Actor, id: number): Promise<AuthSourceDetail> {
  await ensureFeature(ctx.db, actor.tenantId);
  const row = await findSource(ctx.db, actor.tenantId, id);
  return { ...toItem(ctx, row), app_secret: maskSecret(openSecret(ctx, row.tenant_id, row.app_secret)) };
}

/** Refuses a name another source of the tenant has (case-insensitively). */
async function ensureNameFree(db: Db, tenantId: number, key: string, exceptId?: number) {
  const taken = await sourcesOf(db, tenantId)
    .select('id')
    .where('name_key', '=', key)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (taken) throw invalid(M.authSourceNameTaken);
}

/** A unique index decided a race on the name: say so, or let the error be what it was. */
async function nameRace(db: Db, tenantId: number, key: string, e: unknown, exceptId?: number): Promise<never> {
  if (e instanceof ApiError) throw e;
  await ensureNameFree(db, tenantId, key, exceptId);
  throw e;
}

/** Creates an enabled source; at most LIMITS.authSourcesMax per tenant, names unique in the tenant. */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<number> {
  await ensureFeature(ctx.db, actor.tenantId);
  const key = input.name.toLowerCase();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // Two creates racing for the last place.
      await lockTenant(ctx, trx, actor.tenantId);
      await ensureNameFree(trx, actor.tenantId, key);
      const n = await sourcesOf(trx, actor.tenantId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= LIMITS.authSourcesMax) throw invalid(fmt(M.authSourceTooMany, { n: LIMITS.authSourcesMax }));
      const now = Date.now();
      const row = await trx
        .insertInto('auth_source')
        .values({
          tenant_id: actor.tenantId,
          type: input.type,
          name: input.name,
          name_key: key,
          app_id: input.app_id,
          app_secret: sealSecret(ctx, actor.tenantId, input.app_secret),
          agent_id: input.agent_id,
          corp_id: input.corp_id,
          status: AUTH_SOURCE_STATUS.enabled,
          create_time: now,
          update_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  } catch (e) {
    return nameRace(ctx.db, actor.tenantId, key, e);
  }
}

/**
 * Changes a source's name and app settings. The type cannot change; the secret's mask (as the info call
 * gave it) keeps the stored secret, anything else replaces it. Members it created stay bound: who they
 * are is the provider's user id in the provider's organisation, which the settings do not change.
 */
export async function edit(ctx: Ctx, actor: Actor, input: EditInput): Promise<void> {
  await ensureFeature(ctx.db, actor.tenantId);
  const key = input.name.toLowerCase();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await findSource(trx, actor.tenantId, input.id);
      if (row.type !== input.type) throw invalid(M.authSourceTypeFixed);
      await ensureNameFree(trx, actor.tenantId, key, row.id);
      const keep = input.app_secret === maskSecret(openSecret(ctx, row.tenant_id, row.app_secret));
      await trx
        .updateTable('auth_source')
        .set({
          name: input.name,
          name_key: key,
          app_id: input.app_id,
          ...(keep ? {} : { app_secret: sealSecret(ctx, actor.tenantId, input.app_secret) }),
          agent_id: input.agent_id,
          corp_id: input.corp_id,
          update_time: Date.now(),
        })
        .where('id', '=', row.id)
        .where('tenant_id', '=', actor.tenantId)
        .execute();
    });
  } catch (e) {
    await nameRace(ctx.db, actor.tenantId, key, e, input.id);
  }
}

/** The members a source created. */
const boundMembers = async (db: Db, tenantId: number, sourceId: number) =>
  (await db.selectFrom('auth_source_member').select('member_id').where('tenant_id', '=', tenantId).where('source_id', '=', sourceId).execute()).map((r) => r.member_id);

/**
 * Enables or disables a source (either again is no change). Disabling stops sign-ins through it at
 * once (the sign-in path reads the status at each step) and takes their credentials from the members it
 * created, which ends their open sessions (member.changed 'credentials': the gateway revokes and closes).
 */
export async function setStatus(ctx: Ctx, actor: Actor, id: number, status: number): Promise<void> {
  await ensureFeature(ctx.db, actor.tenantId);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findSource(trx, actor.tenantId, id);
    if (row.status === status) return;
    await trx.updateTable('auth_source').set({ status, update_time: Date.now() }).where('id', '=', row.id).where('tenant_id', '=', actor.tenantId).execute();
    if (status !== AUTH_SOURCE_STATUS.disabled) return;
    const members = await boundMembers(trx, actor.tenantId, row.id);
    await ctx.events.emitAll(
      trx,
      members.map((member_id) => ({ type: 'member.changed', tenant_id: actor.tenantId, member_id, fields: ['credentials'] })),
    );
  });
}

/**
 * Deletes a source, which cannot be undone: the members it created are deleted with it (they leave
 * their networks, their devices are closed), as closing LDAP removes the members it imported.
 */
export async function remove(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  await ensureFeature(ctx.db, actor.tenantId);
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const row = await findSource(trx, actor.tenantId, id);
    await deleteMembers(ctx, trx, actor.tenantId, await boundMembers(trx, actor.tenantId, row.id));
    await trx.deleteFrom('auth_source').where('id', '=', row.id).where('tenant_id', '=', actor.tenantId).execute();
  });
}
