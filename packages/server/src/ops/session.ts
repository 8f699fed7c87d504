import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { Config } from '../config';
import { createBackbone } from '../core/backbone';
import { createCtx, type Ctx } from '../core/context';
import { coreModule } from '../core/housekeeping';
import { createStore } from '../core/store';
import { connect } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { MODULES } from '../modules';

/**
 * The CLI's side of the server: the same database (migrated first), storage and event subscribers,
 * without HTTP and without running jobs. What a command announces (a completed work order making its
 * POP resource, a ticket reply becoming a notice) is delivered here before the command exits, so the
 * effect is there whether or not a server is running; jobs a command queues run on the servers.
 */
export async function openOpsSession(config: Config): Promise<{ ctx: Ctx; close(): Promise<void> }> {
  // Warnings (a new secret key file to back up) as lines for the operator, on stderr beside the answer.
  const pretty = PinoPretty({ destination: 2, sync: true, colorize: false, ignore: 'pid,hostname,time' });
  const log = pino({ level: process.env.LOG_LEVEL || 'warn' }, pretty) as unknown as FastifyBaseLogger;
  const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(handle);
  const store = createStore(config.redisUrl);
  const modules = [coreModule, ...MODULES].filter((m) => m.enabled?.(config) ?? true);
  const parts = createBackbone(config, handle, log, modules.flatMap((m) => m.jobs ?? []), () => ctx);
  const ctx: Ctx = createCtx(config, handle.db, handle.dialect, store, log, parts.backbone);
  for (const m of modules) if (m.on) ctx.events.subscribe(m.name, m.on);
  return {
    ctx,
    async close() {
      try {
        ctx.events.start(ctx);
        await ctx.events.settle();
      } finally {
        await ctx.events.stop();
        await parts.runner.stop();
        await parts.close();
        await store.close();
        await handle.close();
      }
    },
  };
}
