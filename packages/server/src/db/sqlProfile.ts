import fs from 'node:fs';
import type { LogEvent } from 'kysely';

/**
 * HUBLINK_SQL_PROFILE=<file> (benches): the time spent in each SQL text, summed from Kysely's query log,
 * written to the file as JSON (the costliest first) when the process exits, and on SIGUSR2, which also
 * starts the count again (a benchmark takes one phase's figures). With a CPU profile it says which
 * statements the time in the database driver belongs to.
 */
export function sqlProfiler(file: string): (event: LogEvent) => void {
  const totals = new Map<string, { calls: number; ms: number }>();
  const write = () => {
    const rows = [...totals].map(([sql, t]) => ({ ms: Math.round(t.ms), calls: t.calls, sql })).sort((a, b) => b.ms - a.ms);
    fs.writeFileSync(file, JSON.stringify(rows, null, 1));
  };
  process.on('exit', write);
  process.on('SIGUSR2', () => {
    write();
    totals.clear();
  });
  return (event) => {
    const t = totals.get(event.query.sql) ?? { calls: 0, ms: 0 };
    t.calls++;
    t.ms += event.queryDurationMillis;
    totals.set(event.query.sql, t);
  };
}
