// Reads one upload the way the server does, in a process of its own, and prints what it cost:
// `node --import tsx packages/server/test/parseUpload.ts FILE`. Used by the upload bound tests.
import fs from 'node:fs';
import { LIMITS } from '@hublink/contract';
import { readFirstSheet } from '../src/core/xlsxSheet';

const body = fs.readFileSync(process.argv[2]!);
// The resident set before reading, in KB like maxRSS, after a collection when one is exposed.
(globalThis as { gc?: () => void }).gc?.();
const rssBefore = Math.round(process.memoryUsage().rss / 1024);
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
    maxRssKb: process.resourceUsage().maxRSS,
  }),
);
