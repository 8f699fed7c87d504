import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db/connect';
import { CaptchaService } from './captcha';
import { CodeService } from './codes';
import { Outbox, SmtpSender, type Sender } from './outbox';
import { RateLimiter } from './ratelimit';
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
}

export function createCtx(config: Config, db: Db, dialect: Dialect, store: KvStore, log: FastifyBaseLogger): Ctx {
  const senders: Sender[] = config.smtpUrl ? [new SmtpSender(config.smtpUrl, config.mailFrom)] : [];
  const limiter = new RateLimiter(store);
  const outbox = new Outbox(db, log, senders);
  return {
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
  };
}
