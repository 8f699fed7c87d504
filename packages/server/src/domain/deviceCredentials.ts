import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../core/context';

/*
 * Device credentials: what a device presents in its hello instead of its secret once it has proven
 * who it is (the gateway after a secret sign-in, a sign-in source after the provider's OAuth flow).
 * 256 random bits, kept only as their SHA-256; a member keeps its newest few.
 */

/** Credentials kept per member: a router re-flashed or a client on a new phone gets a new one; old ones fade. */
const CREDENTIALS_PER_MEMBER = 5;

export const credentialHash = (credential: string) => createHash('sha256').update(credential).digest('hex');

/** Issues a credential for a member and answers it (the only time it exists in the clear). */
export async function issueDeviceCredential(ctx: Pick<Ctx, 'db'>, member: { id: number; tenant_id: number }, now = Date.now()): Promise<string> {
  const credential = randomBytes(32).toString('base64url');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('device_credential').values({ tenant_id: member.tenant_id, member_id: member.id, token_hash: credentialHash(credential), create_time: now, used_time: now }).execute();
    const old = await trx
      .selectFrom('device_credential')
      .select('id')
      .where('member_id', '=', member.id)
      .orderBy('id', 'desc')
      .offset(CREDENTIALS_PER_MEMBER)
      .limit(1000)
      .execute();
    if (old.length > 0) {
      await trx
        .deleteFrom('device_credential')
        .where(
          'id',
          'in',
          old.map((o) => o.id),
        )
        .execute();
    }
  });
  return credential;
}

/** Revokes every credential of a member (its secret changed): its devices must prove the new secret. */
export async function revokeDeviceCredentials(ctx: Pick<Ctx, 'db'>, memberId: number): Promise<void> {
  await ctx.db.deleteFrom('device_credential').where('member_id', '=', memberId).execute();
}

/** Revokes every device credential of a tenant (the demo's devices get a new secret at each start). */
export async function revokeTenantDeviceCredentials(ctx: Pick<Ctx, 'db'>, tenantId: number): Promise<void> {
  await ctx.db.deleteFrom('device_credential').where('tenant_id', '=', tenantId).execute();
}
