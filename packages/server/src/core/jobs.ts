import type { FastifyBaseLogger } from 'fastify';
import cronParser from 'cron-parser';
import type { Db } from '../db/connect';
import { metricsOf } from './metrics';

/** What a job's run gets: the app's context, a signal that fires when the instance stops, and the run's data. */
export interface JobRun<C> {
  ctx: C;
  data: Record<string, unknown>;
  /** Aborted when the instance stops: finish soon or throw, and the job is handed to another instance. */
  signal: AbortSignal;
}

export interface JobDef<C = unknown> {
  /** Unique, 'area.what' (e.g. 'core.purge-expired'). */
  name: string;
  /** Cron (minute hour day month weekday) in the service's time zone: a recurring job; none: one-off only. */
  schedule?: string;
  /** Further attempts after a failed run (default 3), the first after retryDelaySeconds (default 30), doubling. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long a run may hold the job before it counts as lost and runs again elsewhere (default 15 min). */
  timeoutSeconds?: number;
  run(run: JobRun<C>): Promise<void>;
}

export interface Jobs {
  /** Queues one run of a defined job; it runs on exactly one instance. Returns the job's id. */
  send(name: string, data?: Record<string, unknown>, opts?: { delaySeconds?: number }): Promise<string>;
}

/** The backend behind ctx.jobs: pg-boss on PostgreSQL, an in-process scheduler on SQLite. */
export interface JobRunner extends Jobs {
  start(): Promise<void>;
  /** Stops taking jobs; running ones are told to stop and either finish or are handed back. */
  stop(): Promise<void>;
}

export const jobDefaults = (def: JobDef<never>) => ({
  retryLimit: def.retryLimit ?? 3,
  retryDelaySeconds: def.retryDelaySeconds ?? 30,
  timeoutSeconds: def.timeoutSeconds ?? 15 * 60,
});

export function checkJobDefs(defs: JobDef<never>[], timezone: string) {
  const seen = new Set<string>();
  for (const d of defs) {
    if (!/^[a-z][a-z0-9-]*\.[a-z0-9.-]+$/.test(d.name) || d.name.length > 64) throw new Error(`job name ${d.name}: use 'area.what', at most 64 characters`);
    if (seen.has(d.name)) throw new Error(`job ${d.name} defined twice`);
    seen.add(d.name);
    if (d.schedule) cronParser.parseExpression(d.schedule, { tz: timezone });
  }
}

/** A stop that arrived while a run was going: the run is handed back, not failed. */
export class JobStopped extends Error {
  constructor() {
    super('the instance stopped during the run');
  }
}

const ERROR_MAX = 1000;

/**
 * Runs one job and records it in job_run (start, end, outcome, error), whichever backend took it.
 * Resolves 'ok', 'given_back' (the instance stopped during the run) or 'failed' (the error is logged).
 */
export async function runRecorded<C>(
  db: Db,
  log: FastifyBaseLogger,
  instance: string,
  def: JobDef<C>,
  jobId: string,
  run: JobRun<C>,
): Promise<{ outcome: 'ok' | 'given_back' | 'failed'; error?: unknown }> {
  const started = Date.now();
  let runId: number | undefined;
  try {
    const row = await db
      .insertInto('job_run')
      .values({ job: def.name, job_id: jobId.slice(0, 64), instance, outcome: 'running', error: null, started_at: started, finished_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    runId = Number(row.id);
  } catch (err) {
    log.error({ err, job: def.name }, 'jobs: could not record the start of a run');
  }
  let outcome: 'ok' | 'given_back' | 'failed' = 'ok';
  let error: unknown;
  try {
    await def.run(run);
  } catch (err) {
    error = err;
    outcome = run.signal.aborted ? 'given_back' : 'failed';
    if (outcome === 'failed') log.error({ err, job: def.name, jobId }, 'jobs: run failed');
    else log.info({ job: def.name, jobId }, 'jobs: run handed back at stop');
  }
  if (runId !== undefined) {
    const message = error === undefined ? null : (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX);
    await db
      .updateTable('job_run')
      .set({ outcome, error: message, finished_at: Date.now() })
      .where('id', '=', runId)
      .execute()
      .catch((err: unknown) => log.error({ err, job: def.name }, 'jobs: could not record the end of a run'));
  }
  metricsOf(run.ctx)?.observeJob(def.name, outcome, Date.now() - started);
  return { outcome, error };
}

/** The next time a cron expression fires after `from`, in the given time zone. */
export function nextRun(schedule: string, timezone: string, from = new Date()): number {
  return cronParser.parseExpression(schedule, { tz: timezone, currentDate: from }).next().getTime();
}
