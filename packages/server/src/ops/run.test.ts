import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Ctx } from '../core/context';
import { defineCommand, epochOf, OpsError, timeArg } from './command';
import { OPS_COMMANDS } from './commands';
import { runOps, type OpsIo } from './run';

/** The parsing and answering of `hublink ops`, on commands of the test's own, without a database. */
const echo = defineCommand({
  group: 'demo',
  name: 'echo',
  summary: 'says what it was given',
  positionals: ['word'],
  options: { times: { help: 'how often' }, loud: { boolean: true, help: 'upper case' }, tag: { multiple: true, help: 'tags' }, at: { help: 'a time' } },
  input: z.object({ word: z.string({ error: 'a word is required' }), times: z.string().optional(), loud: z.boolean().optional(), tag: z.array(z.string()).optional(), at: timeArg('at').optional() }),
  async run(_ctx, input) {
    if (input.word === 'no') throw new OpsError('refused: no');
    if (input.word === 'boom') throw new Error('a bug');
    return { table: [{ word: input.loud ? input.word.toUpperCase() : input.word, times: input.times ?? '', tags: input.tag ?? [], at: input.at ?? '' }] };
  },
});

function runner() {
  const seen = { out: '', err: '', opened: 0, closed: 0 };
  const io: OpsIo = {
    open: async () => {
      seen.opened++;
      return { ctx: {} as Ctx, close: async () => void seen.closed++ };
    },
    out: (s) => (seen.out += `${s}\n`),
    err: (s) => (seen.err += `${s}\n`),
  };
  return { seen, run: (argv: string[]) => runOps(argv, [echo], io) };
}

describe('hublink ops: arguments, answers and exit codes', () => {
  it('prints a table, or the rows as JSON with --json; options with dashes, booleans and repeats', async () => {
    const r = runner();
    expect(await r.run(['demo', 'echo', 'hi', '--times', '2', '--loud', '--tag', 'a', '--tag', 'b'])).toBe(0);
    expect(r.seen.out).toBe('word  times  tags       at\nHI    2      ["a","b"]\n');
    const j = runner();
    expect(await j.run(['demo', 'echo', '你好', '--json', '--at', '2026-03-01'])).toBe(0);
    expect(JSON.parse(j.seen.out)).toEqual([{ word: '你好', times: '', tags: [], at: '2026-03-01' }]);
    expect([j.seen.opened, j.seen.closed]).toEqual([1, 1]);
  });

  it('bad usage exits 2 with the usage and opens no database', async () => {
    for (const argv of [[], ['nope'], ['demo'], ['demo', 'shout'], ['demo', 'echo'], ['demo', 'echo', 'a', 'b'], ['demo', 'echo', 'a', '--times'], ['demo', 'echo', 'a', '--at', '2026-02-30'], ['demo', 'echo', 'a', '--at', '2026-02-03T10:00']]) {
      const r = runner();
      expect(await r.run(argv), argv.join(' ')).toBe(2);
      expect(r.seen.opened, argv.join(' ')).toBe(0);
      expect(r.seen.err + r.seen.out).toContain('usage: hublink ops');
    }
    const r = runner();
    await r.run(['demo', 'echo', 'a', '--at', 'tomorrow']);
    expect(r.seen.err.split('\n')[0]).toBe('--at: at must be a date (YYYY-MM-DD), an ISO 8601 time with its offset, now, or +N d/m/y (+30d, +1y)');
  });

  it('times: a day in the service zone, a time with its offset, now, or a span from now', () => {
    const ctx = { config: { timezone: 'Asia/Shanghai' } } as Ctx;
    const now = Date.parse('2026-01-31T12:00:00Z');
    expect(epochOf(ctx, '2026-03-01', now)).toBe(Date.parse('2026-02-28T16:00:00Z'));
    expect(epochOf(ctx, '2026-03-01T08:00:00+08:00', now)).toBe(Date.parse('2026-03-01T00:00:00Z'));
    expect(epochOf(ctx, 'now', now)).toBe(now);
    expect(epochOf(ctx, '+30d', now)).toBe(Date.parse('2026-03-02T12:00:00Z'));
    expect(epochOf(ctx, '+1y', now)).toBe(Date.parse('2027-01-31T12:00:00Z'));
    expect(epochOf(ctx, '+2m', now)).toBe(Date.parse('2026-03-31T12:00:00Z'));
    for (const bad of ['+1w', '+-1d', 'tomorrow', '2026-1-1', '2026-01-01 08:00']) expect(timeArg('at').safeParse(bad).success, bad).toBe(false);
  });

  it('--help and help print usage and exit 0', async () => {
    const r = runner();
    expect(await r.run(['demo', 'echo', '--help'])).toBe(0);
    expect(r.seen.out).toContain('usage: hublink ops demo echo <word> [options] [--json]');
    expect(r.seen.out).toContain('--tag <value> …');
    expect(await r.run(['help'])).toBe(0);
    expect(r.seen.out).toContain('demo echo');
  });

  it('a refusal exits 1 with its message; a bug is not swallowed; the session closes either way', async () => {
    const r = runner();
    expect(await r.run(['demo', 'echo', 'no'])).toBe(1);
    expect(r.seen.err).toBe('refused: no\n');
    await expect(r.run(['demo', 'echo', 'boom'])).rejects.toThrow('a bug');
    expect([r.seen.opened, r.seen.closed]).toEqual([2, 2]);
  });

  it('every command has a unique group and name, a summary, and declares its options in snake_case', () => {
    const names = OPS_COMMANDS.map((c) => `${c.group} ${c.name}`);
    expect(new Set(names).size).toBe(names.length);
    for (const c of OPS_COMMANDS) {
      expect(c.summary, names.join()).not.toBe('');
      for (const key of Object.keys(c.options ?? {})) expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });
});
