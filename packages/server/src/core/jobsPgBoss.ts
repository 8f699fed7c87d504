import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Db } from '../db/connect';
import { jobDefaults, runRecorded, type JobDef, type JobRunner } from './jobs';

export interface PgBossOptions {
  connectionString: string;
  /** pg-boss keeps its queue in a schema of its own. */
  schema: string;
  timezone: string;
  /** How often an idle worker asks for work (pg-boss's minimum is 0.5). */
  pollSeconds?: number;
}

/**
 * Jobs on PostgreSQL through pg-boss: each job is a queue; a run is taken by exactly one worker of all
 * instances, under a lease that runs out (expireInSeconds) if its instance dies, and recurring jobs
 * are pg-boss schedules, which one instance turns into runs. Recurring jobs use the singleton policy,
 * so two runs of one never overlap. A run cut short by stop is queued again at once (its attempt is not
 * counted) and completed here, so another instance takes it without waiting for a retry delay.
 */
export class PgBossJobRunner<C> implements JobRunner {
  private readonly boss: PgBoss;
  private readonly defs = new Map<string, JobDef<C>>();
  private readonly running = new Set<AbortController>();
  /** pg-boss starts on the first start() or send(): an instance that neither runs nor queues jobs never opens it. */
  private booted: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly instance: string,
    defs: JobDef<C>[],
    private readonly ctx: () => C,
    private readonly opts: PgBossOptions,
  ) {
    for (const d of defs) this.defs.set(d.name, d);
    this.boss = new PgBoss({ connectionString: opts.connectionString, schema: opts.schema, max: 3, application_name: `hublink-jobs ${instance}` });
    this.boss.on('error', (err) => this.log.error({ err }, 'jobs: pg-boss error'));
  }

  async send(name: string, data: Record<string, unknown> = {}, opts: { delaySeconds?: number } = {}): Promise<string> {
    if (!this.defs.has(name)) throw new Error(`jobs: no job named ${name}`);
    await this.boot();
    const id = await this.boss.send(name, data, opts.delaySeconds ? { startAfter: opts.delaySeconds } : {});
    if (!id) throw new Error(`jobs: ${name} was not queued`);
    return id;
  }

  private boot(): Promise<void> {
    if (this.stopping) return Promise.reject(new Error('jobs: stopped'));
    this.booted ??= (async () => {
      await this.boss.start();
      for (const def of this.defs.values()) {
        const { retryLimit, retryDelaySeconds, timeoutSeconds } = jobDefaults(def);
        const queue = { name: def.name, retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true, expireInSeconds: timeoutSeconds };
        await this.boss.createQueue(def.name, { ...queue, policy: def.schedule ? 'singleton' : 'standard' });
        await this.boss.updateQueue(def.name, queue);
        if (def.schedule) await this.boss.schedule(def.name, def.schedule, {}, { tz: this.opts.timezone });
        else await this.boss.unschedule(def.name);
      }
    })();
    return this.booted;
  }

  async start() {
    await this.boot();
    for (const def of this.defs.values()) {
      // pg-boss waits the polling interval after every fetch, even one that found a job, so a queue of
      // 200 alerts took 400 s to drain. A worker that ran a job asks at once for the next; only an empty
      // fetch waits the interval.
      let worker = '';
      worker = await this.boss.work<Record<string, unknown>>(def.name, { pollingIntervalSeconds: this.opts.pollSeconds ?? 2, batchSize: 1 }, async ([job]) => {
        if (!job) return;
        try {
          await this.runJob(def, job);
        } finally {
          if (worker) this.boss.notifyWorker(worker);
        }
      });
    }
  }

  private async runJob(def: JobDef<C>, job: PgBoss.Job<Record<string, unknown>>) {
    const abort = new AbortController();
    this.running.add(abort);
    try {
      const { outcome, error } = await runRecorded(this.db, this.log, this.instance, def, job.id, { ctx: this.ctx(), data: job.data ?? {}, signal: abort.signal });
      if (outcome === 'given_back') {
        await this.boss.send(def.name, job.data ?? {});
        return;
      }
      // pg-boss records the failure and schedules the retry.
      if (outcome === 'failed') throw error;
    } finally {
      this.running.delete(abort);
    }
  }

  async stop() {
    this.stopping = true;
    if (!this.booted) return;
    await this.booted.catch(() => undefined);
    for (const a of this.running) a.abort();
    // Waits for the runs that are going (they were told to stop); what is still running after the
    // timeout is failed by pg-boss and retried elsewhere.
    await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }
}
