import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const RUN = path.resolve(import.meta.dirname, '../../test/clusterHubRun.ts');

it('shares one store and relays every publication to every worker through the primary', async () => {
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', RUN], { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
  );
  const workers = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { index: number; got: { from: number }[]; counts: number[]; taken: string | null; takenAgain: string | null })
    .sort((a, b) => a.index - b.index);
  expect(workers.map((w) => w.index)).toEqual([0, 1]);
  for (const w of workers) {
    // Each worker hears both publications, its own included.
    expect(w.got.map((m) => m.from).sort()).toEqual([0, 1]);
    expect(w.taken).toBe('yes');
    expect(w.takenAgain).toBeNull();
  }
  // One counter for both: the four increments are 1 to 4, whichever worker made each.
  expect(workers.flatMap((w) => w.counts).sort()).toEqual([1, 2, 3, 4]);
}, 90_000);
