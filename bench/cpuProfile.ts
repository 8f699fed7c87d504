/**
 * Where a process's time went, from a V8 CPU profile (node --cpu-prof; the benches take
 * BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR"): the functions with the most self time,
 * and the same grouped by package or source file, as shares of the sampled time.
 *
 *   npx tsx bench/cpuProfile.ts FILE.cpuprofile [TOP]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package> (or @scope/package), else the file's path from packages/. */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  const own = /packages\/(.+)$/.exec(url);
  if (own) return own[1]!;
  return url.replace(/^file:\/\//, '').replace(/^node:/, 'node:');
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpuProfile.ts FILE.cpuprofile [TOP]');
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const idle = [...self].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const fns = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    const place = placeOf(url);
    const key = `${functionName || '(anonymous)'}  ${place}${url ? `:${lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + t);
    places.set(place, (places.get(place) ?? 0) + t);
  }
  // Inclusive time of the project's own functions (a function on the stack twice counts once per node: rough under recursion).
  const inclusive = new Map<number, number>();
  const walk = (id: number): number => {
    const n = byId.get(id)!;
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += walk(c);
    inclusive.set(id, t);
    return t;
  };
  walk(profile.nodes[0]!.id);
  const own = new Map<string, number>();
  for (const [id, t] of inclusive) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (!/\/packages\//.test(url) || /node_modules/.test(url)) continue;
    const key = `${functionName || '(anonymous)'}  ${placeOf(url)}:${lineNumber + 1}`;
    own.set(key, (own.get(key) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
  const ms = (t: number) => `${(t / 1000).toFixed(0).padStart(7)} ms`;
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %); shares of the busy time`);
  console.log('\nself time by function:');
  for (const [k, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(t)} ${pct(t)}  ${k}`);
  console.log("\nthe project's functions by inclusive time:");
  for (const [k, t] of [...own].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(t)} ${pct(t)}  ${k}`);
  console.log('\nself time by package or file:');
  for (const [k, t] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(t)} ${pct(t)}  ${k}`);
}

main();
