import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db/connect';
import { CaptchaService } from './captcha';
import { CodeService } from './codes';
import type { EventBus } from './events';
import type { Jobs } from './jobs';
import { Outbox, SmtpSender, type Sender } from './outbox';
import { RateLimiter } from './ratelimit';
import { createSecretBox, loadSecretKey, type SecretBox } from './secretBox';
import type { PubSub } from './pubsub';
import type { Storage } from './storage';
import type { KvStore } from './store';
import { TokenService } from './tokens';

/** What services need from the outside world, built once per app. */
export interface Ctx {
  config: Config;
  db: Db;
  dialect: Dialect;
  log: FastifyBaseLogger;
  store: KvStore;
  limiter: RateLimiter;
  captcha: CaptchaService;
  tokens: TokenService;
  outbox: Outbox;
  codes: CodeService;
  /** The backbone (docs/architecture.md): domain events, jobs, pub/sub between instances, files. */
  events: EventBus<Ctx>;
  jobs: Jobs;
  pubsub: PubSub;
  storage: Storage;
  /** Seals secrets kept at rest (the PKI's private keys) under HUBLINK_SECRET_KEY or the data dir's key file. */
  secretBox: SecretBox;
}

export interface Backbone {
  events: EventBus<Ctx>;
  jobs: Jobs;
  pubsub: PubSub;
  storage: Storage;
}

export function createCtx(config: Config, db: Db, dialect: Dialect, store: KvStore, log: FastifyBaseLogger, backbone: Backbone): Ctx {
  const senders: Sender[] = config.smtpUrl ? [new SmtpSender(config.smtpUrl, config.mailFrom)] : [];
  const limiter = new RateLimiter(store);
  const outbox = new Outbox(db, log, senders);
  return {
    secretBox: openSecretBox(config, log),
    config,
    db,
    dialect,
    log,
    store,
    limiter,
    captcha: new CaptchaService(store),
    tokens: new TokenService(db, config.tokenTtlSeconds, config.sessionTtlSeconds),
    outbox,
    codes: new CodeService(db, outbox, limiter, store),
    ...backbone,
  };
}

/** The secret box of this instance; says (without the key) when it made a key file that needs a backup. */
function openSecretBox(config: Config, log: FastifyBaseLogger): SecretBox {
  const loaded = loadSecretKey(config);
  if (loaded.source === 'created') {
    log.warn({ file: loaded.file }, 'generated a new secret key file: back it up with the database; without it the stored private keys cannot be opened');
  }
  if (loaded.source !== 'env' && config.databaseUrl) {
    log.info({ file: loaded.file }, 'the secret key comes from the data dir; instances sharing this database need the same key (set HUBLINK_SECRET_KEY on each)');
  }
  return createSecretBox(loaded.key);
}
