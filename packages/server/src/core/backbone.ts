import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import type { DbHandle } from '../db/connect';
import type { Backbone, Ctx } from './context';
import { ClusterPubSub, sharesThroughPrimary } from './clusterHub';
import { EventBus, type EventBusOptions } from './events';
import { checkJobDefs, type JobDef, type JobRunner } from './jobs';
import { LocalJobRunner } from './jobsLocal';
import { PgBossJobRunner } from './jobsPgBoss';
import { MemoryPubSub, RedisPubSub, type PubSub } from './pubsub';
import { LocalStorage, type Storage } from './storage';
import { S3Storage, s3FromUrl } from './storageS3';

export interface BackboneOptions {
  pubsub?: PubSub;
  storage?: Storage;
  events?: EventBusOptions;
  /** How often idle pg-boss workers look for jobs (tests make it short). */
  jobPollSeconds?: number;
  /** Prefix of Redis keys and channels (tests give each app its own). */
  redisPrefix?: string;
}

/** pg-boss's schema: beside the app's ('t_abc' → 't_abc_jobs'), 'hublink_jobs' for the default one. */
export const jobsSchemaOf = (handle: Pick<DbHandle, 'schema'>) => `${handle.schema ?? 'hublink'}_jobs`;

export interface BackboneParts {
  backbone: Backbone;
  runner: JobRunner;
  /** The shared Redis connection (rate limits use it too), when REDIS_URL is set. */
  redis?: Redis;
  close(): Promise<void>;
}

/** Builds the pieces every module stands on, each from its configuration (docs/architecture.md). */
export function createBackbone(config: Config, handle: DbHandle, log: FastifyBaseLogger, jobs: JobDef<Ctx>[], ctx: () => Ctx, opts: BackboneOptions = {}): BackboneParts {
  checkJobDefs(jobs, config.timezone);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (err) => log.error({ err }, 'redis: connection error'));
  const pubsub =
    opts.pubsub ?? (redis ? new RedisPubSub(redis, log, opts.redisPrefix) : sharesThroughPrimary(config.redisUrl) ? new ClusterPubSub(log) : new MemoryPubSub(log));
  const storage = opts.storage ?? (config.s3Url ? new S3Storage(s3FromUrl(config.s3Url)) : new LocalStorage(path.join(config.dataDir, 'storage')));
  const events = new EventBus<Ctx>(handle.db, handle.dialect, log, { leaseMs: config.eventLeaseMs, ...opts.events });
  const runner: JobRunner =
    handle.dialect === 'postgres'
      ? new PgBossJobRunner(handle.db, log, config.instance, jobs, ctx, {
          connectionString: handle.url!,
          schema: jobsSchemaOf(handle),
          timezone: config.timezone,
          pollSeconds: opts.jobPollSeconds,
        })
      : new LocalJobRunner(handle.db, log, config.instance, config.timezone, jobs, ctx);
  return {
    backbone: { events, jobs: runner, pubsub, storage },
    runner,
    redis,
    async close() {
      await pubsub.close();
      await redis?.quit();
    },
  };
}
