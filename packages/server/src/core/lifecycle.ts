import type { FastifyInstance } from 'fastify';

export interface ServeOptions {
  port: number;
  host: string;
  /** How long a drain may take before the process gives up and exits 1 (default 30 s). */
  graceMs?: number;
  exit?: (code: number) => void;
}

/**
 * Listens until SIGTERM or SIGINT, then drains: HTTP stops accepting, the requests in flight answer,
 * jobs finish or are handed back, modules stop (sockets close), connections close; then exits 0.
 * A drain that takes longer than graceMs exits 1.
 */
export async function serveUntilSignal(app: FastifyInstance, opts: ServeOptions): Promise<void> {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests, jobs and connections');
    const force = setTimeout(() => {
      app.log.error({ graceMs: opts.graceMs ?? 30_000 }, 'shutdown did not finish in time; exiting');
      exit(1);
    }, opts.graceMs ?? 30_000);
    force.unref();
    try {
      await app.close();
      app.log.info('stopped');
      exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: opts.port, host: opts.host });
}
