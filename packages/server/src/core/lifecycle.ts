import type { FastifyInstance } from 'fastify';

export interface ServeOptions {
  port: number;
  host: string;
  /** How long a drain may take before the process gives up and exits 1 (default 30 s). */
  graceMs?: number;
  /**
   * HUBLINK_SHUTDOWN_DELAY_SECONDS: after the signal, how long the server goes on serving while /readyz
   * answers 503 draining, so balancers that probe it stop sending before the listener closes (default 0).
   */
  delayMs?: number;
  /** Called at the signal, before the delay (the app's readiness turns to draining). */
  onSignal?: () => void;
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
    opts.onSignal?.();
    if (opts.delayMs) {
      app.log.info({ signal, delayMs: opts.delayMs }, 'shutting down: readiness says draining; serving on until the delay ends');
      // The balancers' probes need this long to take the instance out: a delay is the point here.
      await new Promise((resolve) => setTimeout(resolve, opts.delayMs));
    }
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
