import { sweepPending } from '../../core/auditOutbox';
import type { Ctx } from '../../core/context';
import { defineModule } from '../../core/module';
import { auditRoutes } from './routes';
import { applyRetention, writeEntry } from './service';

/** The entries of calls whose process died between their changes and their entry (core/auditOutbox.ts). */
async function sweep(ctx: Ctx) {
  const settled = await sweepPending(ctx.db, ctx.events, Date.now() - ctx.config.auditPendingGraceMs);
  if (settled > 0) ctx.log.warn({ settled }, 'audit: entries written for calls cut off by a stop');
}

export const auditModule = defineModule({
  name: 'audit',
  routes: auditRoutes,
  on: { 'operation.performed': writeEntry },
  // At start too (once, where jobs run): a restart after a crash writes its cut-off calls' entries at once.
  start: async (ctx) => {
    if (ctx.config.runJobs) await sweep(ctx).catch((err: unknown) => ctx.log.error({ err }, 'audit: the sweep of cut-off calls failed'));
  },
  jobs: [
    { name: 'audit.sweep-pending', schedule: '* * * * *', run: ({ ctx }) => sweep(ctx) },
    {
      name: 'audit.retention',
      schedule: '43 3 * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await applyRetention(ctx) }, 'housekeeping: audit entries past retention removed'),
    },
  ],
});
