import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect';
import { jobDefaults, nextRun, runRecorded, type JobDef, type JobRunner } from './jobs';

const POLL_MS = 1000;
/** setTimeout takes at most 2^31-1 ms; a later run is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Jobs on SQLite, where one runner serves the database (of several workers, the first): recurring
 * jobs on timers from their cron expressions (a run that is still going when the next is due skips
 * that one), one-off jobs in the job_queue table so that a restart runs what was queued. One-off jobs
 * of one name run one at a time, oldest first; jobs of different names run side by side, so a long
 * one (a bulk import) does not hold back an alert's delivery. A one-off leaves the queue when it
 * succeeds or has used its retries; a run cut short by stop stays queued.
 */
export class LocalJobRunner<C> implements JobRunner {
  private readonly defs = new Map<string, JobDef<C>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private poller: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  /** The job names whose queued jobs are being run, each by its own loop. */
  private readonly lanes = new Map<string, Promise<void>>();
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly instance: string,
    private readonly timezone: string,
    defs: JobDef<C>[],
    private readonly ctx: () => C,
  ) {
    for (const d of defs) this.defs.set(d.name, d);
  }

  async send(name: string, data: Record<string, unknown> = {}, opts: { delaySeconds?: number } = {}): Promise<string> {
    if (!this.defs.has(name)) throw new Error(`jobs: no job named ${name}`);
    const now = Date.now();
    const row = await this.db
      .insertInto('job_queue')
      .values({ name, data: JSON.stringify(data), run_at: now + (opts.delaySeconds ?? 0) * 1000, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.poke();
    return String(row.id);
  }

  async start() {
    this.started = true;
    for (const def of this.defs.values()) if (def.schedule) this.plan(def);
    this.poke();
  }

  async stop() {
    this.started = false;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    clearTimeout(this.poller);
    for (const r of this.running.values()) r.abort.abort();
    await Promise.allSettled([this.draining, ...this.lanes.values(), ...[...this.running.values()].map((r) => r.done)]);
  }

  private plan(def: JobDef<C>) {
    const wait = Math.max(0, nextRun(def.schedule!, this.timezone) - Date.now());
    const timer = setTimeout(() => {
      if (!this.started) return;
      if (wait >= MAX_TIMER_MS) return this.plan(def);
      if (!this.running.has(`cron:${def.name}`)) void this.runOne(`cron:${def.name}`, def, `cron-${Date.now()}`, {});
      if (this.started) this.plan(def);
    }, Math.min(wait, MAX_TIMER_MS));
    timer.unref();
    this.timers.set(def.name, timer);
  }

  private poke() {
    if (!this.started || this.draining) return;
    clearTimeout(this.poller);
    this.draining = this.startLanes()
      .catch((err: unknown) => this.log.error({ err }, 'jobs: queue pass failed'))
      .finally(() => {
        this.draining = undefined;
        if (!this.started) return;
        this.poller = setTimeout(() => this.poke(), POLL_MS);
        this.poller.unref();
      });
  }

  /** Starts a loop for each job name that has due jobs and none running. */
  private async startLanes() {
    const due = await this.db.selectFrom('job_queue').select('name').distinct().where('run_at', '<=', Date.now()).execute();
    for (const { name } of due) {
      if (!this.started || this.lanes.has(name)) continue;
      const lane = this.drainLane(name)
        .catch((err: unknown) => this.log.error({ err, job: name }, 'jobs: queue pass failed'))
        .finally(() => this.lanes.delete(name));
      this.lanes.set(name, lane);
    }
  }

  /** Runs the due one-off jobs of one name, oldest first, one at a time. */
  private async drainLane(name: string) {
    while (this.started) {
      const job = await this.db
        .selectFrom('job_queue')
        .selectAll()
        .where('name', '=', name)
        .where('run_at', '<=', Date.now())
        .orderBy('run_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!job) return;
      const def = this.defs.get(job.name);
      if (!def) {
        // Queued by a version that had this job; keep it for one that has it again, out of the way.
        await this.db.updateTable('job_queue').set({ run_at: Date.now() + 3600_000 }).where('id', '=', job.id).execute();
        continue;
      }
      const { outcome } = await this.runOne(`queue:${job.id}`, def, String(job.id), JSON.parse(job.data) as Record<string, unknown>);
      if (outcome === 'given_back') return;
      const { retryLimit, retryDelaySeconds } = jobDefaults(def);
      if (outcome === 'ok' || job.attempts >= retryLimit) {
        await this.db.deleteFrom('job_queue').where('id', '=', job.id).execute();
      } else {
        const delay = retryDelaySeconds * 1000 * 2 ** job.attempts;
        await this.db.updateTable('job_queue').set({ attempts: job.attempts + 1, run_at: Date.now() + delay }).where('id', '=', job.id).execute();
      }
    }
  }

  private async runOne(key: string, def: JobDef<C>, jobId: string, data: Record<string, unknown>) {
    const abort = new AbortController();
    const done = runRecorded(this.db, this.log, this.instance, def, jobId, { ctx: this.ctx(), data, signal: abort.signal });
    this.running.set(key, { abort, done });
    try {
      return await done;
    } finally {
      this.running.delete(key);
    }
  }
}
