import { randomBytes, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { CODE, M } from '@hublink/contract';
import type { Db } from '../db/connect';
import { ApiError } from './errors';
import { familyOf, familyRef, heldBy } from './sessions';

export interface TokenClaims {
  /** Tenant (main account) id. */
  tid: number;
  /** Sub-account id, 0 for the main account. */
  rid: number;
  /** Session id. */
  sid: string;
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
  sid: string;
}

/** Checked tokens kept in memory (about 300 bytes each); the oldest go first. */
const VERIFIED_TOKENS_MAX = 10_000;

/** Signed access tokens (HS256). The key lives in the database so every instance shares it. */
export class TokenService {
  private key?: Uint8Array;
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
    private readonly sessionTtlSeconds: number,
  ) {}

  private async secret(): Promise<Uint8Array> {
    if (this.key) return this.key;
    const fresh = randomBytes(32).toString('base64url');
    await this.db.insertInto('setting').values({ key: 'jwt_secret', value: fresh }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const row = await this.db.selectFrom('setting').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow();
    this.key = new TextEncoder().encode(row.value);
    return this.key;
  }

  private async sign(claims: TokenClaims, expiresAt: number): Promise<string> {
    return new SignJWT({ tid: claims.tid, rid: claims.rid })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(claims.sid)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(await this.secret());
  }

  /**
   * Opens a session and returns its token. A refresh passes the chain it continues: the session keeps
   * the sign-in's refresh limit and ends with it.
   */
  async issue(tenantId: number, ramId: number | null, chain?: { refreshUntil: number; familyId: string }): Promise<IssuedToken> {
    const now = Date.now();
    const sid = randomUUID();
    const expiresAt = now + this.ttlSeconds * 1000;
    await this.db
      .insertInto('session')
      .values({
        id: sid,
        tenant_id: tenantId,
        ram_id: ramId,
        create_time: now,
        expires_at: expiresAt,
        refresh_until: chain?.refreshUntil ?? now + this.sessionTtlSeconds * 1000,
        revoked_at: null,
        family_id: chain?.familyId ?? sid,
        ended_at: null,
      })
      .execute();
    return { token: await this.sign({ tid: tenantId, rid: ramId ?? 0, sid }, expiresAt), expiresIn: this.ttlSeconds, sid };
  }

  /** Verifies signature and expiry (unless allowExpired) and returns the claims; throws 2001/2002. */
  async decode(token: string, allowExpired = false): Promise<TokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (!allowExpired && known.exp * 1000 <= Date.now()) throw new ApiError(CODE.tokenExpired, M.tokenExpired);
      return known.claims;
    }
    try {
      const { payload } = await jwtVerify(token, await this.secret(), {
        algorithms: ['HS256'],
        ...(allowExpired ? { currentDate: new Date(0) } : {}),
      });
      if (typeof payload.tid !== 'number' || typeof payload.rid !== 'number' || !payload.jti || typeof payload.exp !== 'number') {
        throw new Error('claims');
      }
      const claims = { tid: payload.tid, rid: payload.rid, sid: payload.jti };
      this.remember(token, claims, payload.exp);
      return claims;
    } catch (e) {
      if (e instanceof errors.JWTExpired) throw new ApiError(CODE.tokenExpired, M.tokenExpired);
      throw new ApiError(CODE.tokenInvalid, M.tokenInvalid);
    }
  }

  /**
   * A token's signature never changes, so a checked one is kept with its expiry and not checked
   * again: jose's HMAC goes through WebCrypto's thread pool, which costs more than the rest of a
   * small call. The session is still read on every call, so revoking stays immediate.
   */
  private remember(token: string, claims: TokenClaims, exp: number) {
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, exp });
  }

  /**
   * A new token for the same session (within its refresh limit, else 2002); the old token stops
   * working. Of two refreshes racing with one token, only one gets a new token.
   */
  async refresh(sid: string): Promise<IssuedToken & { tenantId: number; ramId: number | null }> {
    const s = await this.db.selectFrom('session').selectAll().where('id', '=', sid).executeTakeFirst();
    if (!s || s.revoked_at !== null) throw new ApiError(CODE.tokenInvalid, M.tokenInvalid);
    if (s.refresh_until <= Date.now()) throw new ApiError(CODE.tokenExpired, M.tokenExpired);
    if (!(await this.revoke(sid))) throw new ApiError(CODE.tokenInvalid, M.tokenInvalid);
    const issued = await this.issue(s.tenant_id, s.ram_id, { refreshUntil: s.refresh_until, familyId: familyOf(s) });
    return { ...issued, tenantId: s.tenant_id, ramId: s.ram_id };
  }

  /**
   * Signs out: ends the session's sign-in, every token of its chain. A refresh racing the sign-out may
   * still issue a token of the chain, but the chain's end refuses it at its first call (core/actor.ts).
   */
  async signOut(sid: string): Promise<void> {
    const now = Date.now();
    const s = await this.db.selectFrom('session').select(['id', 'family_id', 'tenant_id', 'ram_id']).where('id', '=', sid).executeTakeFirst();
    if (!s) return;
    const family = familyOf(s);
    await this.db.updateTable('session').set({ ended_at: now }).where('id', '=', family).where('ended_at', 'is', null).execute();
    // The chain is the holder's: its index finds the rows, the family picks them.
    await this.db
      .updateTable('session')
      .set({ revoked_at: now })
      .where(heldBy({ tenantId: s.tenant_id, ramId: s.ram_id }))
      .where((eb) => eb(familyRef(eb), '=', family))
      .where('session.revoked_at', 'is', null)
      .execute();
  }

  /** Ends a session; true when this call ended it (false: unknown or already ended). */
  async revoke(sid: string): Promise<boolean> {
    const r = await this.db
      .updateTable('session')
      .set({ revoked_at: Date.now() })
      .where('id', '=', sid)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
