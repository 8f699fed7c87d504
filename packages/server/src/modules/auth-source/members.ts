import { randomBytes } from 'node:crypto';
import { LIMITS, M, ROUTER_TYPE, searchableText } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { createMembers, memberKey, placesLeft } from '../../domain/members';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import type { Identity } from './providers';

/**
 * A member a source creates has no password: it signs in through its source only. This is no scrypt
 * hash, so no secret ever matches it; the tenant may still give it a password in the member list.
 */
const NO_SECRET = '!auth_source';

/** Characters a member's name may have (letters, digits, '_' and '.'); anything else becomes '_'. */
export function memberNameBase(raw: string): string {
  const name = raw.replace(/[^A-Za-z0-9_.]/g, '_').slice(0, LIMITS.memberNameMax);
  return /[A-Za-z0-9]/.test(name) ? name : 'user';
}

/** Names to try for a new member: the base, then the base cut to make room for '_2', '_3', …, then random ones. */
function* candidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= 20; n++) {
    const suffix = `_${n}`;
    yield `${base.slice(0, LIMITS.memberNameMax - suffix.length)}${suffix}`;
  }
  for (;;) {
    const suffix = `_${randomBytes(3).toString('hex')}`;
    yield `${base.slice(0, LIMITS.memberNameMax - suffix.length)}${suffix}`;
  }
}

/** The first free name of the tenant for a new member (the caller holds the tenant's lock). */
async function freeName(db: Db, tenantId: number, base: string): Promise<string> {
  for (const name of candidates(base)) {
    const taken = await db.selectFrom('member').select('id').where('tenant_id', '=', tenantId).where('router_key', '=', memberKey(name)).executeTakeFirst();
    if (!taken) return name;
  }
  throw new Error('unreachable');
}

/** How a provider identity is bound to a member (auth_source_member.external_key). */
export const externalKeyOf = (identity: Pick<Identity, 'namespace' | 'userId'>) => `${identity.namespace}/${identity.userId}`;

export interface BoundMember {
  id: number;
  router_name: string;
  status: number;
}

/**
 * The software member bound to a provider identity through a source, created on its first sign-in:
 * under the tenant's lock, within the tenant's member quota, named after the provider's user id (a
 * name the tenant already uses gets '_2', '_3', … instead), with the provider's name for the person as
 * its note, and announced with member.created like any other new member.
 */
export async function memberFor(ctx: Ctx, source: { id: number; tenant_id: number; type: string }, identity: Identity): Promise<BoundMember> {
  const tenantId = source.tenant_id;
  const externalKey = externalKeyOf(identity);
  const bound = (db: Db) =>
    db
      .selectFrom('auth_source_member')
      .innerJoin('member', 'member.id', 'auth_source_member.member_id')
      .select(['member.id', 'member.router_name', 'member.status'])
      .where('auth_source_member.source_id', '=', source.id)
      .where('auth_source_member.external_key', '=', externalKey)
      .executeTakeFirst();
  const known = await bound(ctx.db);
  if (known) return known;

  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, tenantId);
    const again = await bound(trx);
    if (again) return again;
    const { left } = await placesLeft(trx, tenantId);
    if (left <= 0) throw forbidden(M.authSourceMemberQuotaFull);
    const name = await freeName(trx, tenantId, memberNameBase(identity.nameBase));
    const now = Date.now();
    const [member] = await createMembers(
      ctx,
      trx,
      tenantId,
      [
        {
          router_name: name,
          router_type: ROUTER_TYPE.software,
          note: searchableText(identity.displayName.slice(0, LIMITS.memberNoteMax)),
          secret_hash: NO_SECRET,
          source: source.type,
          name: searchableText(identity.displayName.slice(0, 64)),
        },
      ],
      now,
    );
    const id = member!.id;
    await trx.insertInto('auth_source_member').values({ tenant_id: tenantId, source_id: source.id, member_id: id, external_key: externalKey, create_time: now }).execute();
    return { id, router_name: name, status: 1 };
  });
}

/** A member bound to a source, read again when its ticket is redeemed (it may have been disabled or deleted since). */
export async function boundMember(db: Db, sourceId: number, memberId: number): Promise<BoundMember> {
  const m = await db
    .selectFrom('auth_source_member')
    .innerJoin('member', 'member.id', 'auth_source_member.member_id')
    .select(['member.id', 'member.router_name', 'member.status'])
    .where('auth_source_member.source_id', '=', sourceId)
    .where('auth_source_member.member_id', '=', memberId)
    .executeTakeFirst();
  if (!m) throw invalid(M.authSourceMemberGone);
  return m;
}
