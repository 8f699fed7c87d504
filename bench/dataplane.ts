/*
 * The data plane's times, several runs: the namespace suite (packages/server/src/dataplane/network.test.ts)
 * run RUNS times with HUBLINK_DATAPLANE_BENCH=1, which adds its throughput measurement; each run prints
 * its figures, and this prints the median and the worst of each, with the load average before each run
 * (docs/performance.md, "Data plane"). Needs what the suite needs (root, openvpn, frr, iperf3…).
 *   npx tsx bench/dataplane.ts            # 5 runs
 *   BENCH_RUNS=3 npx tsx bench/dataplane.ts
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FIGURES = /data plane figures \(ms\): (\{.*\})/;

/** What each figure is, in the order of the table; throughput is Mbit/s (higher is better), the rest ms. */
const ROWS: [key: string, label: string][] = [
  ['failover', 'failover main → backup (cut to traffic through the backup)'],
  ['console', 'console shows the point on its backup (from the cut)'],
  ['failback', 'failback (main back to traffic through it)'],
  ['failbackGap', 'longest gap in traffic during failback'],
  ['dualReroute', 'dual primary: one center lost to traffic on the other'],
  ['defaultRouteTakeover', 'default route: advertiser lost to the next one carrying'],
  ['removal', 'removed member cut off'],
  ['changeGap', 'longest gap on another tunnel while the network changed'],
  ['restartGap', 'longest gap while every tunnel restarted (cipher change)'],
  ['bareMbit', 'iperf3 without a tunnel (Mbit/s)'],
  ['defaultMbit', 'iperf3 through a tunnel, default ciphers (Mbit/s)'],
  ['smMbit', 'iperf3 through a tunnel, sm ciphers (Mbit/s)'],
];

const runs: Record<string, number>[] = [];
const loads: string[] = [];
for (let i = 0; i < RUNS; i++) {
  loads.push(loadavg().map((l) => l.toFixed(1)).join(' '));
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'server-serial', 'packages/server/src/dataplane/network.test.ts'], {
    encoding: 'utf8',
    env: { ...process.env, HUBLINK_DATAPLANE_BENCH: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const found = FIGURES.exec(r.stdout ?? '');
  if (r.status !== 0 || !found) {
    console.error(`run ${i + 1} failed (exit ${r.status}):\n${(r.stdout ?? '').slice(-4000)}\n${r.stderr ?? ''}`);
    process.exit(1);
  }
  runs.push(JSON.parse(found[1]!) as Record<string, number>);
  console.log(`run ${i + 1}/${RUNS} (load ${loads[i]}): ${found[1]}`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(`\ndata plane, ${RUNS} runs, load average before each: ${loads.join(' | ')}`);
console.log('| figure | median | worst |');
console.log('|---|---|---|');
for (const [key, label] of ROWS) {
  const xs = runs.map((r) => r[key]).filter((x): x is number => typeof x === 'number');
  if (xs.length === 0) continue;
  const worst = key.endsWith('Mbit') ? Math.min(...xs) : Math.max(...xs);
  const unit = key.endsWith('Mbit') ? '' : ' ms';
  console.log(`| ${label} | ${Math.round(median(xs))}${unit} | ${Math.round(worst)}${unit} |`);
}
