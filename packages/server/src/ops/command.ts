import { z } from 'zod';
import type { Ctx } from '../core/context';
import { formatTime, startOfDay } from '../core/time';

/**
 * One `hublink ops <group> <name>` command. Its arguments (positionals by name, then --options with
 * dashes turned to underscores) are parsed by `input`; a refusal prints the schema's message and exits 2.
 */
export interface OpsCommand<S extends z.ZodType = z.ZodType> {
  group: string;
  name: string;
  summary: string;
  /** Positional arguments, in order, by the names `input` reads them under; a trailing '?' marks one that may be left out. */
  positionals?: string[];
  /** Options the command takes (besides --json); each is a string unless said boolean or repeatable. */
  options?: Record<string, { boolean?: boolean; multiple?: boolean; help: string }>;
  input: S;
  run(ctx: Ctx, input: z.output<S>): Promise<OpsResult>;
}

/** What a command answers: rows printed as a table, one record printed as key/value lines, or a sentence. */
export type OpsResult =
  | { table: Record<string, unknown>[]; columns?: string[] }
  | { record: Record<string, unknown> }
  | { done: string; data?: Record<string, unknown> };

/** A refusal the operator can act on (a missing tenant, a wrong state): printed, exit 1. */
export class OpsError extends Error {}

export const defineCommand = <S extends z.ZodType>(c: OpsCommand<S>): OpsCommand => c as unknown as OpsCommand;

// Shared parsers of command-line values: everything arrives as a string.

/** A whole number given as digits. */
export const intArg = (what: string, min = 0, max = 2_147_483_647) =>
  z
    .string({ error: `${what} is required` })
    .regex(/^\d+$/, `${what} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`));

/** --limit of a list: how many rows, 50 unless given, at most 1000. */
export const LIMIT_OPTION = { limit: { help: 'how many (default 50, at most 1000)' } };
export const limitArg = () => intArg('limit', 1, 1000).default(50);

/** 0 or 1. */
export const flagArg = (what: string) => z.enum(['0', '1'], { error: `${what} must be 0 or 1` }).transform(Number);

const RELATIVE = /^\+(\d{1,4})([dmy])$/;

/** A real calendar date, a time with its offset, 'now', or a span from now (+30d, +6m, +1y). */
const isTime = (v: string) =>
  v === 'now' || RELATIVE.test(v)
    ? true
    : /^\d{4}-\d{2}-\d{2}$/.test(v)
      ? new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v
      : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v));

/** A date (YYYY-MM-DD, the start of that day in the service's time zone), an ISO 8601 time with its offset, 'now' or +N d/m/y from now. */
export const timeArg = (what: string) =>
  z.string({ error: `${what} is required` }).refine(
    (v) => {
      try {
        return isTime(v);
      } catch {
        return false;
      }
    },
    { message: `${what} must be a date (YYYY-MM-DD), an ISO 8601 time with its offset, now, or +N d/m/y (+30d, +1y)` },
  );

/** Epoch milliseconds of a value timeArg accepted. */
export function epochOf(ctx: Ctx, v: string, now = Date.now()): number {
  const span = RELATIVE.exec(v);
  if (v === 'now') return now;
  if (span) {
    const n = Number(span[1]);
    const at = new Date(now);
    if (span[2] === 'd') return now + n * 86_400_000;
    if (span[2] === 'm') at.setUTCMonth(at.getUTCMonth() + n);
    else at.setUTCFullYear(at.getUTCFullYear() + n);
    return at.getTime();
  }
  return v.includes('T') ? Date.parse(v) : startOfDay(v, ctx.config.timezone);
}

/** Epoch milliseconds as the console shows them (the service's time zone); empty for none. */
export const shownTime = (ctx: Ctx, ms: number | null | undefined) => (ms === null || ms === undefined ? '' : formatTime(Number(ms), ctx.config.timezone));

/** A tenant named by its id or its username. */
export const tenantArg = z.string({ error: 'a tenant (id or username) is required' }).trim().min(1, 'a tenant (id or username) is required');

