import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { otherNodeEnv, prepareNode, type OtherNode } from './otherNode/prepare';
import { keepCatalogueSmall } from './pgCatalog';
import { summaryText, type RunSummary } from './plain-summary';

/*
 * `npm test` after lint and types (docs/testing.md, "What the suite runs"), in vitest processes:
 *  1. the server's parallel files (two at a time);
 *  2. the namespace suites (OpenVPN, FRR, measured failovers), one at a time: they wait on timers and
 *     the network and leave most of the processor idle, so beside them run the console's files and
 *     then the server's files and the start of `npm start` under Node 24 on SQLite. The suites are
 *     started at a raised priority (nice -10: root, which they need anyway), so what they time is
 *     never kept waiting by the files beside them; without root they run first, alone;
 *  3. the files that need an exclusive resource but little processor (Redis, server processes, slapd,
 *     migrations) beside the browser tests.
 * Node 24 is fetched and better-sqlite3 built for it (scripts/otherNode) from the start. PostgreSQL's
 * catalogue is compacted first and vacuumed through the run (scripts/pgCatalog.ts). Output of the
 * runs beside another is held and printed whole when each ends. With arguments, one plain `vitest run`.
 */

/** The Node version, besides the one running npm, that the server's tests run under (users run 22, 24 or 26). */
const OTHER_NODE = '24.22.3';

const VITEST = path.resolve(import.meta.dirname, '../node_modules/vitest/vitest.mjs');

interface Run {
  args: string[];
  /** ' under Node N' for a run under the other Node, else ''. */
  label: string;
  code: number;
  summary: RunSummary | null;
}

/** How a run is started: its output live or held until it ends, under the other Node, at a raised priority. */
interface RunOptions {
  out: 'live' | 'held';
  under?: OtherNode;
  /** Started through nice(1) at this niceness (negative: before everything else; root only). */
  niceness?: number;
}

function vitest(args: string[], { out, under, niceness }: RunOptions): Promise<Run> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-test-')), 'summary.json');
  const env = under
    ? // SQLite only: the PostgreSQL and Redis runs are the first Node's. The fuzz test still calls every
      // route under the other Node, with a tenth of its generated requests (the first Node runs them all).
      otherNodeEnv(under, { ...process.env, TEST_DATABASE_URL: '', TEST_REDIS_URL: '', FUZZ_RUNS: '20', PLAIN_SUMMARY_LABEL: `Node ${under.version}` })
    : process.env;
  const command = [under ? under.node : process.execPath, VITEST, 'run', ...args];
  const child = spawn(niceness ? 'nice' : command[0]!, niceness ? ['-n', String(niceness), ...command] : command.slice(1), {
    stdio: ['ignore', out === 'live' ? 'inherit' : 'pipe', out === 'live' ? 'inherit' : 'pipe'],
    env: { ...env, PLAIN_SUMMARY_OUT: file },
  });
  const held: Buffer[] = [];
  child.stdout?.on('data', (b: Buffer) => held.push(b));
  child.stderr?.on('data', (b: Buffer) => held.push(b));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      if (held.length > 0) process.stdout.write(Buffer.concat(held));
      let summary: RunSummary | null = null;
      try {
        summary = JSON.parse(fs.readFileSync(file, 'utf8')) as RunSummary;
      } catch {
        // The run died before its reporter wrote: it counts as one failure below.
      }
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      resolve({ args, label: under ? ` under Node ${under.version}` : '', code: code ?? (signal ? 128 : 1), summary });
    });
  });
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { stdio: 'inherit' });
  child.on('close', (code) => process.exit(code ?? 1));
} else {
  const otherNode = prepareNode(OTHER_NODE, (line) => process.stdout.write(`${line}\n`)).then(
    (made) => ({ made }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
  const underOtherNode = async (): Promise<Run[]> => {
    const other = await otherNode;
    if ('error' in other) {
      process.stdout.write(`\nNode ${OTHER_NODE} could not be made ready: ${other.error}\n`);
      return [{ args: [], label: ` (Node ${OTHER_NODE} not ready)`, code: 1, summary: null }];
    }
    return [
      await vitest(['--project', 'server'], { out: 'held', under: other.made }),
      await vitest(['--project', 'server-exclusive', 'packages/server/src/startup.test.ts'], { out: 'held', under: other.made }),
    ];
  };
  // The console's files, then the server's under the other Node: beside the namespace suites when they
  // can be put first (they leave most of the processor idle, waiting on timers and the network).
  const side = async (): Promise<Run[]> => [await vitest(['--project', 'web', '--project', 'web-mocks'], { out: 'held' }), ...(await underOtherNode())];

  const databaseUrl = process.env.TEST_DATABASE_URL;
  const stopVacuum = databaseUrl ? await keepCatalogueSmall(databaseUrl, (line) => process.stdout.write(`${line}\n`)) : async () => {};

  const parallel = await vitest(['--project', 'server', '--project', 'server-mocks'], { out: 'live' });
  // Root may raise a priority (and the namespace suites need root anyway): then their failovers and
  // cut-offs are timed with every process of theirs scheduled before the side lane's.
  const raised = process.getuid?.() === 0;
  const sideLane = raised ? side() : Promise.resolve([]);
  if (raised) process.stdout.write('\nThe namespace suites, at a raised priority; beside them the console files and the other Node (their output when each ends):\n');
  const serial = await vitest(['--project', 'server-serial'], { out: 'live', niceness: raised ? -10 : 0 });
  process.stdout.write('\nThe exclusive-resource files and the browser tests, side by side (browser output when it ends):\n');
  const rest = await Promise.all([
    vitest(['--project', 'server-exclusive'], { out: 'live' }).then((r) => [r]),
    vitest(['--project', 'e2e'], { out: 'held' }).then((r) => [r]),
    raised ? sideLane : side(),
  ]).then((lanes) => lanes.flat());
  await stopVacuum();
  const runs = [parallel, serial, ...rest];
  const total: RunSummary = { passed: 0, failed: 0, skipped: 0, failures: [], files: [], spans: {} };
  for (const r of runs) {
    if (!r.summary) {
      total.failed += 1;
      total.failures.push(`vitest ${r.args.join(' ')}${r.label}: ended (exit ${r.code}) before its reporter wrote`);
      continue;
    }
    total.passed += r.summary.passed;
    total.failed += r.summary.failed;
    total.skipped += r.summary.skipped;
    total.failures.push(...r.summary.failures);
    total.files.push(...r.summary.files);
    Object.assign(total.spans, r.summary.spans);
    // A run that exited non-zero with no failed test (a set-up or teardown error) still fails the whole.
    if (r.code !== 0 && r.summary.failed === 0) {
      total.failed += 1;
      total.failures.push(`vitest ${r.args.join(' ')}${r.label}: exit ${r.code} with no failed test (see its output)`);
    }
  }
  process.stdout.write(summaryText(total));
  process.exit(runs.some((r) => r.code !== 0) || total.failed > 0 ? 1 : 0);
}
