import type { Ctx } from './context';
import { purgeEmailValidations } from './emailValidation';
import { defineModule } from './module';

const DAY = 24 * 3600_000;

/** How long ended rows of core's tables are kept before the housekeeping jobs delete them. */
export const RETENTION = {
  /** Sessions past their refresh limit or revoked, and expired codes: kept a day (for support questions). */
  sessionsMs: DAY,
  codesMs: DAY,
  emailValidationsMs: 7 * DAY,
  /** Password recoveries (the auth module's table) past their expiry. */
  recoveriesMs: DAY,
  /** The outbox is the record of mails and SMS sent; the dev outbox reads the newest. */
  outboxMs: 30 * DAY,
  /** Events whose deliveries have all finished. */
  eventsMs: 7 * DAY,
  jobRunsMs: 30 * DAY,
} as const;

/** Deletes what has ended in core's tables; returns the count per table (the run's log line). */
export async function purgeExpired(ctx: Ctx, now = Date.now()): Promise<Record<string, number>> {
  const n = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const sessionsBefore = now - RETENTION.sessionsMs;
  const codesBefore = now - RETENTION.codesMs;
  return {
    session: n(
      await ctx.db
        .deleteFrom('session')
        .where((eb) => eb.or([eb('refresh_until', '<', sessionsBefore), eb('revoked_at', '<', sessionsBefore)]))
        .executeTakeFirst(),
    ),
    verification_code: n(await ctx.db.deleteFrom('verification_code').where('expires_at', '<', codesBefore).executeTakeFirst()),
    outbox: n(await ctx.db.deleteFrom('outbox').where('create_time', '<', now - RETENTION.outboxMs).executeTakeFirst()),
    email_validation: await purgeEmailValidations(ctx.db, RETENTION.emailValidationsMs),
  };
}

/** Deletes delivered events and old job runs. */
export async function trimEvents(ctx: Ctx, now = Date.now()): Promise<Record<string, number>> {
  const runs = await ctx.db.deleteFrom('job_run').where('started_at', '<', now - RETENTION.jobRunsMs).where('outcome', '!=', 'running').executeTakeFirst();
  return { event: await ctx.events.trim(RETENTION.eventsMs), job_run: Number(runs.numDeletedRows) };
}

/**
 * The core's own jobs. Captchas need none: they live in the key-value store with their expiry
 * (Redis expires them; the memory store sweeps them).
 */
export const coreModule = defineModule({
  name: 'core',
  jobs: [
    {
      name: 'core.purge-expired',
      schedule: '17 * * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await purgeExpired(ctx) }, 'housekeeping: expired rows purged'),
    },
    {
      name: 'core.trim-events',
      schedule: '47 * * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await trimEvents(ctx) }, 'housekeeping: delivered events trimmed'),
    },
  ],
});
