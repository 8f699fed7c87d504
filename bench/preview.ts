/**
 * Reachability preview benchmark (issue 36): what a settings dialog waits for before it can show a
 * change's effect. Networks like bench/compile.ts's (two centers in main-backup routing, points with a
 * /24 LAN each, one in five a software client) of several sizes; for each, the compile of both sides is
 * left out (the server has it) and the comparison timed: every member against every site, in the
 * normal state and with each center down, before and after.
 * - harmless: the DNS servers change (no pair changes);
 * - cutting: one point is linked to the backup center only (its pairs with the main center's LAN and
 *   with the points behind it are lost while the main center is up and the backup is not twin-linked).
 * Median of RUNS runs after one warm-up, with the pairs compared, the changes found and the longest the
 * event loop waited meanwhile (the comparison yields every 10 ms).
 *
 *   npx tsx bench/preview.ts            (BENCH_SIZES=100,400,1000 BENCH_RUNS=5)
 */
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { compileNetwork } from '../packages/server/src/compiler/compile';
import { largeNetwork } from '../packages/server/src/compiler/fixtures';
import { compareReachability, reachabilityIn, statesOf } from '../packages/server/src/compiler/reachabilityMap';

const SIZES = (process.env.BENCH_SIZES ?? '100,400,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function median(body: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  await body();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await body();
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ms: mid(wall), cpu: mid(cpu) };
}

console.log(`preview bench: node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${RUNS} runs each`);
for (const size of SIZES) {
  const input = largeNetwork(size);
  const before = compileNetwork(input);
  const harmless = compileNetwork({ ...input, dns: ['192.0.2.53'] });
  const point = input.members.findIndex((m) => m.member_type === 'point' && m.router_type === 1);
  const members = [...input.members];
  members[point] = { ...members[point]!, link_centers: ['center2'] };
  const cutting = compileNetwork({ ...input, members });
  const pairs = statesOf(before).reduce((n, state) => n + reachabilityIn(before, state).length, 0);
  const found = { harmless: 0, cutting: 0 };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const a = await median(async () => (found.harmless = (await compareReachability(before, harmless)).length));
  const b = await median(async () => (found.cutting = (await compareReachability(before, cutting)).length));
  loop.disable();
  console.log(
    `${size} members: ${pairs} pairs a side over ${statesOf(before).length} states; harmless ${a.ms.toFixed(0)} ms (cpu ${a.cpu.toFixed(0)} ms, ${found.harmless} changes), cutting ${b.ms.toFixed(0)} ms (cpu ${b.cpu.toFixed(0)} ms, ${found.cutting} changes); the event loop's longest wait ${(loop.max / 1e6).toFixed(0)} ms`,
  );
}
