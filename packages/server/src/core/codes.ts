import { createHash, randomInt } from 'node:crypto';
import { CODE, fmt, LIMITS, M, type SendType } from '@hublink/contract';
import type { Db } from '../db/connect';
import { ApiError, invalid } from './errors';
import type { Outbox } from './outbox';
import { RATE_LIMITS, type RateLimiter } from './ratelimit';
import type { KvStore } from './store';
import { exclusive } from './turns';

const hashCode = (destination: string, code: string) =>
  createHash('sha256').update(`${destination}\n${code}`).digest('hex');

/** Normalises a destination so '+86 138…' and 'A@B.com' each have one spelling. */
export const destinationKey = (channel: SendType, value: string) =>
  channel === 'email' ? value.trim().toLowerCase() : value.trim().replace(/\s+/g, ' ');

const PURPOSE_TEXT: Record<string, string> = {
  register: M.codePurposeRegister,
  find_password: M.codePurposeFindPassword,
  verify_phone: M.codePurposeVerify,
  verify_email: M.codePurposeVerify,
  bind_phone: M.codePurposeBindPhone,
  bind_email: M.codePurposeBindEmail,
  edit_phone: M.codePurposeEditPhone,
  edit_email: M.codePurposeEditEmail,
  edit_password: M.codePurposeEditPassword,
  app_change_phone: M.codePurposeMemberChangePhone,
  app_bind_phone: M.codePurposeMemberBindPhone,
};

/**
 * 6-digit verification codes: one live code per destination and purpose, a 59 s resend cooldown,
 * 10 minutes of life, 5 wrong tries burn it, and a code serves only the purpose it was sent for.
 */
export class CodeService {
  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox,
    private readonly limiter: RateLimiter,
    private readonly store: KvStore,
  ) {}

  /**
   * Sends a new code (the previous one of the same destination and purpose stops working). Refused
   * with 429 during the cooldown, also when several requests arrive at once (only one sends), and
   * over the per-destination and per-address limits. When delivery fails the code is withdrawn
   * (no cooldown for the retry) and the caller gets 500.
   */
  async send(channel: SendType, value: string, purpose: string, ip: string): Promise<void> {
    const destination = destinationKey(channel, value);
    const busy = fmt(M.codeCooldown, { n: LIMITS.codeCooldownSeconds });
    await exclusive(this.store, `code-sending:${purpose}:${destination}`, 30, busy, () => this.sendNow(channel, destination, purpose, ip));
  }

  private async sendNow(channel: SendType, destination: string, purpose: string, ip: string): Promise<void> {
    const now = Date.now();
    const last = await this.db
      .selectFrom('verification_code')
      .select('create_time')
      .where('destination', '=', destination)
      .where('purpose', '=', purpose)
      .orderBy('create_time', 'desc')
      .limit(1)
      .executeTakeFirst();
    const wait = last ? Math.ceil((last.create_time + LIMITS.codeCooldownSeconds * 1000 - now) / 1000) : 0;
    if (wait > 0) throw new ApiError(CODE.tooMany, fmt(M.codeCooldown, { n: wait }));
    await this.limiter.hit({ ...RATE_LIMITS.codePerDestination, message: M.tooManyCodes }, destination);
    await this.limiter.hit({ ...RATE_LIMITS.codePerIp, message: M.tooManyCodes }, ip);

    const code = String(randomInt(0, 1_000_000)).padStart(LIMITS.codeLength, '0');
    const id = await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('verification_code')
        .set({ used_at: now })
        .where('destination', '=', destination)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      const row = await trx
        .insertInto('verification_code')
        .values({ destination, purpose, code_hash: hashCode(destination, code), attempts: 0, create_time: now, expires_at: now + LIMITS.codeTtlSeconds * 1000, used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    const what = PURPOSE_TEXT[purpose] ?? M.codePurposeVerify;
    const minutes = LIMITS.codeTtlSeconds / 60;
    const status = await this.outbox.deliver({
      channel: channel === 'phone' ? 'sms' : 'email',
      to: destination,
      subject: fmt(M.codeMailSubject, { what }),
      body: fmt(M.codeMailBody, { what, code, minutes }),
      code,
    });
    if (status === 'failed') {
      await this.db.deleteFrom('verification_code').where('id', '=', id).execute();
      throw new ApiError(CODE.internal, M.internalError);
    }
  }

  /** Checks a code and uses it up (see check). */
  async consume(channel: SendType, value: string, purpose: string, code: string): Promise<void> {
    await this.use(await this.check(channel, value, purpose, code));
  }

  /**
   * Checks a code without using it up, for a call that has more to check before it acts (see use);
   * answers the code's id. Every try is counted before the comparison, in one conditional update,
   * so tries sent all at once cannot get past the limit: the fifth wrong one burns the code.
   */
  async check(channel: SendType, value: string, purpose: string, code: string): Promise<number> {
    const destination = destinationKey(channel, value);
    const row = await this.db
      .selectFrom('verification_code')
      .selectAll()
      .where('destination', '=', destination)
      .where('purpose', '=', purpose)
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const now = Date.now();
    if (!row) throw invalid(M.codeWrong);
    const refusal = (r: { attempts: number }) => invalid(r.attempts >= LIMITS.codeMaxAttempts ? M.codeBurned : M.codeWrong);
    if (row.used_at !== null) throw refusal(row);
    if (row.expires_at <= now) throw invalid(M.codeExpired);

    const counted = await this.db
      .updateTable('verification_code')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .where('attempts', '<', LIMITS.codeMaxAttempts)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) throw refusal(await this.attemptsOf(row.id));

    if (row.code_hash === hashCode(destination, code.trim())) return row.id;
    await this.db
      .updateTable('verification_code')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .where('attempts', '>=', LIMITS.codeMaxAttempts)
      .execute();
    throw refusal(await this.attemptsOf(row.id));
  }

  /** Uses up a checked code, in the caller's transaction when it has one; refused when another call used it first. */
  async use(id: number, db: Db = this.db): Promise<void> {
    const used = await db.updateTable('verification_code').set({ used_at: Date.now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalid(M.codeWrong);
  }

  private async attemptsOf(id: number) {
    return this.db.selectFrom('verification_code').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
  }
}
