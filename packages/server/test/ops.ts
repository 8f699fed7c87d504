import type { OpsCommand } from '../src/ops/command';
import { OPS_COMMANDS } from '../src/ops/commands';
import { runOps } from '../src/ops/run';
import type { TestApp } from './helpers';

export interface OpsRun {
  code: number;
  out: string;
  err: string;
  /** The printed answer of a --json run. */
  json<T = unknown>(): T;
}

/**
 * Runs `hublink ops …` in the test's process against the test app's database and backbone, as the CLI
 * does against its own (src/ops/session.ts): the events a command raised are delivered before it answers.
 */
export async function ops(t: TestApp, argv: string[], commands: OpsCommand[] = OPS_COMMANDS): Promise<OpsRun> {
  let out = '';
  let err = '';
  const code = await runOps(argv, commands, {
    open: async () => ({ ctx: t.app.ctx, close: () => t.app.ctx.events.settle() }),
    out: (s) => (out += `${s}\n`),
    err: (s) => (err += `${s}\n`),
  });
  return {
    code,
    out,
    err,
    json: <T>() => JSON.parse(out) as T,
  };
}
