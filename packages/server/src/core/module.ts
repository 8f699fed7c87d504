import type { Config } from '../config';
import type { Ctx } from './context';
import type { Subscriptions } from './events';
import type { App } from './http';
import type { JobDef } from './jobs';

/**
 * One area of the server, as app.ts and the CLI see it: its HTTP calls, what it does when the app
 * starts and stops, the domain events it reacts to and its background jobs. app.ts registers the
 * list in modules/index.ts, starts the modules in that order and stops them in reverse.
 */
export interface Module {
  /** Names its event subscribers ('ram:operation.performed') and its log lines. */
  name: string;
  /** Where its routes are mounted (default '/api/v1'). */
  prefix?: string;
  /** A module that serves only some deployments (the dev endpoints); default: always. */
  enabled?: (config: Config) => boolean;
  routes?: (app: App, ctx: Ctx) => void;
  /** After the app is ready, before it listens. */
  start?: (ctx: Ctx) => Promise<void>;
  /** On close, after HTTP has drained and jobs have stopped, while the database is still open. */
  stop?: (ctx: Ctx) => Promise<void>;
  on?: Subscriptions<Ctx>;
  jobs?: JobDef<Ctx>[];
}

export const defineModule = (m: Module): Module => m;
