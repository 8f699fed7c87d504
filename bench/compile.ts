/**
 * Compiler benchmark (issue 12): a network of 1,000 members — two centers in main-backup routing,
 * 799 hardware points each with a /24 LAN, 199 software clients, two DNS servers and set pools.
 * - full compile: compileNetwork of the whole network (configs and OpenVPN files);
 * - one-member change: a point's dial mode flips, the network is compiled again with the previous
 *   compile's memo (unchanged points are reused) and every member's hash is compared with the previous
 *   one (recompileNetwork's work, without the database).
 * Each figure is the median of RUNS runs after a warm-up, p95 beside it, and the median CPU time of
 * the process per run (on a shared machine the wall time also counts the other processes' turns).
 *
 *   npx tsx bench/compile.ts
 */
import os from 'node:os';
import { CompileMemo, compileNetwork } from '../packages/server/src/compiler/compile';
import { largeNetwork } from '../packages/server/src/compiler/fixtures';
import type { NetworkInput } from '../packages/server/src/compiler/model';
import { diffConfigs, storedForm } from '../packages/server/src/compiler/versions';

const MEMBERS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARMUP = 10;
const TARGET_FULL_MS = 200;
const TARGET_CHANGE_MS = 20;

interface Timing {
  p50: number;
  p95: number;
  /** CPU time (user + system) of the process per run, median: what the work costs when the machine is shared. */
  cpu50: number;
}

function measure(runs: number, body: (i: number) => void): Timing {
  for (let i = 0; i < WARMUP; i++) body(i);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    body(i);
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const w = sorted(wall);
  return { p50: w[Math.floor(runs / 2)]!, p95: w[Math.min(runs - 1, Math.ceil(runs * 0.95) - 1)]!, cpu50: sorted(cpu)[Math.floor(runs / 2)]! };
}

const input = largeNetwork(MEMBERS);
const full = measure(RUNS, () => compileNetwork(input));

const memo = new CompileMemo();
let previous = new Map(compileNetwork(input, memo).members.map((m) => [m.router_name, storedForm(m).hash]));
const point = input.members.findIndex((m) => m.member_type === 'point');
let touched = 0;
const change = measure(RUNS, (i) => {
  const members = [...input.members];
  members[point] = { ...members[point]!, mode: i % 2 === 0 ? 3 : 1 };
  const next: NetworkInput = { ...input, members };
  const diff = diffConfigs(previous, compileNetwork(next, memo));
  touched = diff.changed.length;
  previous = new Map([...diff.forms].map(([name, form]) => [name, form.hash]));
});

const load = os.loadavg()[0]!.toFixed(1);
const row = (name: string, t: Timing, target: number) =>
  `| ${name} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} | ${t.cpu50.toFixed(1)} | < ${target} | ${t.p50 < target ? 'yes' : 'NO'} |`;
console.log(`compiler, ${MEMBERS} members, ${RUNS} runs, load average ${load} (members touched by the change: ${touched})`);
console.log('| case | p50 ms | p95 ms | CPU p50 ms | target | p50 met |');
console.log('|---|---|---|---|---|---|');
console.log(row('full compile', full, TARGET_FULL_MS));
console.log(row('one-member change (compile + hash diff)', change, TARGET_CHANGE_MS));
if (full.p50 >= TARGET_FULL_MS || change.p50 >= TARGET_CHANGE_MS) process.exitCode = 1;
