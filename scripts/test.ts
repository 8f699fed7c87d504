import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { otherNodeEnv, prepareNode, type OtherNode } from './otherNode/prepare';
import { summaryText, type RunSummary } from './plain-summary';

/*
 * `npm test` after lint and types (docs/testing.md, "Where CI's time goes"). One vitest process runs
 * the parallel files, then the files that must have the machine to themselves (namespaces, OpenVPN,
 * measured times). Then two run side by side: the files that need an exclusive resource but not the
 * processor (Redis, server processes, slapd, migrations) and the browser tests, whose output is held
 * and printed whole when they end. Meanwhile Node 24 is fetched and better-sqlite3 built for it
 * (scripts/otherNode); after the exclusive files, the server files and the start of `npm start` run
 * again under it on SQLite. With arguments, one plain `vitest run` with them.
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

function vitest(args: string[], out: 'live' | 'held', under?: OtherNode): Promise<Run> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-test-')), 'summary.json');
  const env = under
    ? // SQLite only: the PostgreSQL and Redis runs are the first Node's. The fuzz test still calls every
      // route under the other Node, with a tenth of its generated requests (the first Node runs them all).
      otherNodeEnv(under, { ...process.env, TEST_DATABASE_URL: '', TEST_REDIS_URL: '', FUZZ_RUNS: '20', PLAIN_SUMMARY_LABEL: `Node ${under.version}` })
    : process.env;
  const child = spawn(under ? under.node : process.execPath, [VITEST, 'run', ...args], {
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
  const first = await vitest(['--project', 'server', '--project', 'server-mocks', '--project', 'web', '--project', 'web-mocks', '--project', 'server-serial'], 'live');
  process.stdout.write('\nThe exclusive-resource files and the browser tests, side by side (browser output when it ends):\n');
  const underOtherNode = async (): Promise<Run[]> => {
    const other = await otherNode;
    if ('error' in other) {
      process.stdout.write(`\nNode ${OTHER_NODE} could not be made ready: ${other.error}\n`);
      return [{ args: [], label: ` (Node ${OTHER_NODE} not ready)`, code: 1, summary: null }];
    }
    process.stdout.write(`\nThe server files and npm start under Node ${OTHER_NODE}, on SQLite:\n`);
    return [
      await vitest(['--project', 'server'], 'live', other.made),
      await vitest(['--project', 'server-exclusive', 'packages/server/src/startup.test.ts'], 'live', other.made),
    ];
  };
  const rest = await Promise.all([
    vitest(['--project', 'server-exclusive'], 'live').then(async (exclusive) => [exclusive, ...(await underOtherNode())]),
    vitest(['--project', 'e2e'], 'held').then((e2e) => [e2e]),
  ]).then((lanes) => lanes.flat());
  const runs = [first, ...rest];
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
