import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import pino from 'pino';
import type { Config } from '../config';
import { serveHub } from './clusterHub';
import { serveClusterMetrics } from './metricsCluster';

export interface SuperviseOptions {
  /** Brings the database up to date before any worker starts, so they never migrate at once. */
  prepare(): Promise<void>;
  /** How long the workers may drain after SIGTERM and HUBLINK_SHUTDOWN_DELAY_SECONDS before they are killed (their own limit is 30 s). */
  graceMs?: number;
}

/** A worker that dies sooner than this after its start counts as failing to start: its restarts slow down. */
const HEALTHY_AFTER_MS = 10_000;
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30_000;

/**
 * The primary of HUBLINK_WORKERS server processes on one port (node:cluster; it hands each new
 * connection to the next worker). It migrates the database, forks the workers (worker 0 also runs
 * jobs and the once-only work, config.runJobs), shares the store and pub/sub among them when there is
 * no Redis (core/clusterHub.ts), starts a worker again when one dies, and on SIGTERM or SIGINT lets
 * every worker drain and exits when all have: 0 if they all stopped cleanly.
 */
export async function superviseWorkers(config: Config, opts: SuperviseOptions): Promise<void> {
  const log = pino({ level: config.logLevel, ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } } : {}) }).child({
    primary: process.pid,
  });
  await opts.prepare();
  const hub = config.redisUrl ? undefined : serveHub(log);
  const metrics = config.metrics ? await serveClusterMetrics(config, log) : undefined;

  const indexOf = new Map<Worker, number>();
  const startedAt = new Map<number, number>();
  const restartWait = new Map<number, number>();
  let stopping = false;
  let failed = false;

  const fork = (index: number) => {
    const worker = cluster.fork({ HUBLINK_WORKER_INDEX: String(index), UV_THREADPOOL_SIZE: threadPoolSize() });
    indexOf.set(worker, index);
    startedAt.set(index, Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const index = indexOf.get(worker);
    indexOf.delete(worker);
    if (index === undefined) return;
    if (stopping) {
      if (code !== 0) failed = true;
      if (indexOf.size === 0) void finish();
      return;
    }
    const lived = Date.now() - (startedAt.get(index) ?? 0);
    const wait = lived >= HEALTHY_AFTER_MS ? RESTART_MIN_MS : Math.min(RESTART_MAX_MS, (restartWait.get(index) ?? RESTART_MIN_MS / 2) * 2);
    restartWait.set(index, wait);
    log.error({ worker: index, pid: worker.process.pid, code, signal, restartInMs: wait }, 'workers: a worker stopped unexpectedly; starting it again');
    setTimeout(() => {
      if (!stopping) fork(index);
    }, wait);
  });

  const finish = async () => {
    await hub?.close();
    await metrics?.close();
    log.info('workers: all stopped');
    process.exit(failed ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: indexOf.size }, 'workers: stopping (each drains its requests, jobs and connections)');
    if (indexOf.size === 0) return void finish();
    // A terminal's Ctrl-C reaches the workers by itself; a SIGTERM to the primary is passed on.
    for (const worker of indexOf.keys()) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      log.error('workers: did not stop in time; killing them');
      for (const worker of indexOf.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, (opts.graceMs ?? 35_000) + config.shutdownDelaySeconds * 1000);
    force.unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < config.workers; i++) fork(i);
  log.info({ workers: config.workers, port: config.port, shared: config.redisUrl ? 'redis' : 'primary' }, 'workers: started');
}

/**
 * libuv's thread pool for a server process: password hashing (scrypt) runs there, one per core, beside
 * file and DNS work. Read by libuv when the pool first starts, so it is given in the process's
 * environment (scripts/start.mjs, the workers' fork); a value the operator set is kept.
 */
export const threadPoolSize = (env: NodeJS.ProcessEnv = process.env) => env.UV_THREADPOOL_SIZE || String(Math.max(4, os.availableParallelism() + 2));

/** In a worker: when the primary is gone (killed), drain and stop as on SIGTERM instead of running on alone. */
export function stopWhenPrimaryGoes(): void {
  if (cluster.isWorker) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
