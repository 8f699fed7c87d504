// Reads one upload the way the server does, in a process of its own, and prints what it cost:
// `node --import tsx packages/server/test/parseUpload.ts FILE`. Used by the upload bound tests.
import fs from 'node:fs';
import { LIMITS } from '@hublink/contract';
import { readFirstSheet } from '../src/core/xlsxSheet';

const body = fs.readFileSync(process.argv[2]!);

/** A figure of /proc/self/status in KB (VmRSS: resident now, VmHWM: the peak since the last reset). */
const statusKb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);

// The resident set before reading, after a collection when one is exposed. The peak is reset then
// (Linux: 5 to clear_refs), so a higher resident set while loading the modules does not count; where
// the kernel refuses, the peak is the process's whole life's, as resourceUsage().maxRSS would say.
(globalThis as { gc?: () => void }).gc?.();
try {
  fs.writeFileSync('/proc/self/clear_refs', '5');
} catch {
  // The lifetime peak then: stricter, never looser.
}
const rssBefore = statusKb('VmRSS');
const cpu = process.cpuUsage();
const started = performance.now();
let outcome: string;
try {
  const { rows } = await readFirstSheet(body, { columns: 5, maxRows: LIMITS.importRowsMax + 1, maxInflatedBytes: LIMITS.uploadMaxInflatedBytes });
  outcome = `rows:${rows.length}`;
} catch (e) {
  outcome = (e as Error).constructor.name;
}
const used = process.cpuUsage(cpu);
process.stdout.write(
  JSON.stringify({
    outcome,
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
    rssBeforeKb: rssBefore,
    maxRssKb: statusKb('VmHWM'),
  }),
);
