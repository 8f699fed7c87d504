import fs from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary names (where the suite's time goes, for CI's budget). */
const SLOWEST = 25;

/** How many failures the summary names: CI shows only the end of the output, where this list is. */
const FAILURES_NAMED = 30;

/** What one run found: the counts, what failed, every file's time, and each project's span (epoch ms). */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test, file that failed outside its tests, or error outside any test, with its first message line. */
  failures: string[];
  files: { name: string; ms: number }[];
  spans: Record<string, { start: number; end: number; sum: number }>;
}

/**
 * Ends the run with one plain line, 'Tests: N passed, N failed, N skipped', for tools that read it.
 * A test file that failed outside its tests (it could not be imported, a hook threw) counts as one
 * failure, so the line never reads 0 failed for a run that failed. Before it, the slowest files and
 * each project's span. When `npm test` runs several vitest processes (scripts/test.mjs), each writes
 * its summary to PLAIN_SUMMARY_OUT instead, and the script prints the whole run's; PLAIN_SUMMARY_LABEL
 * tells a run's projects from the same projects run again (under another Node version).
 */
const projectOf = (m: TestModule) => (process.env.PLAIN_SUMMARY_LABEL ? `${m.project.name} (${process.env.PLAIN_SUMMARY_LABEL})` : m.project.name);

export default class PlainSummary implements Reporter {
  private readonly spans = new Map<string, { start: number; end: number; sum: number }>();

  onTestModuleStart(m: TestModule) {
    const span = this.spans.get(projectOf(m));
    if (span) span.start = Math.min(span.start, Date.now());
    else this.spans.set(projectOf(m), { start: Date.now(), end: Date.now(), sum: 0 });
  }

  onTestModuleEnd(m: TestModule) {
    const span = this.spans.get(projectOf(m));
    if (!span) return;
    span.end = Math.max(span.end, Date.now());
    const d = m.diagnostic();
    span.sum += d.collectDuration + d.setupDuration + d.duration;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, failures: [], files: [], spans: Object.fromEntries(this.spans) };
    for (const m of modules) {
      const file = `${projectOf(m)} ${relative(process.cwd(), m.moduleId)}`;
      let failedTests = 0;
      for (const t of m.children.allTests()) {
        const result = t.result();
        if (result.state === 'passed') summary.passed++;
        else if (result.state === 'failed') {
          failedTests++;
          summary.failures.push(`${file} > ${t.fullName}: ${firstLine(result.errors?.[0])}`);
        } else summary.skipped++;
      }
      if (failedTests === 0 && m.state() === 'failed') {
        summary.failed += 1;
        summary.failures.push(`${file} (outside its tests): ${firstLine(m.errors()[0])}`);
      }
      summary.failed += failedTests;
      const d = m.diagnostic();
      summary.files.push({ name: file, ms: d.collectDuration + d.setupDuration + d.duration });
    }
    // An error outside any test fails the run too: it counts, and is named.
    summary.failed += unhandled.length;
    for (const e of unhandled) summary.failures.push(`${process.env.PLAIN_SUMMARY_LABEL ?? ''} error outside any test: ${firstLine(e)}`.trim());
    const out = process.env.PLAIN_SUMMARY_OUT;
    if (out) fs.writeFileSync(out, JSON.stringify(summary));
    else process.stdout.write(summaryText(summary));
  }
}

/** The end of a run's output: the slowest files, each project's span, and the plain line. */
export function summaryText(s: RunSummary): string {
  let text = '';
  const slow = [...s.files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  if (slow.length > 1) text += `\nSlowest test files:\n${slow.map((x) => `  ${(x.ms / 1000).toFixed(1).padStart(7)} s  ${x.name}`).join('\n')}\n`;
  const rows = Object.entries(s.spans).sort((a, b) => a[1].start - b[1].start);
  if (rows.length > 1) {
    const t0 = rows[0]![1].start;
    const at = (ms: number) => `${((ms - t0) / 1000).toFixed(0).padStart(5)} s`;
    text += `\nProjects (from, to, files' summed time):\n${rows.map(([name, x]) => `  ${name.padEnd(27)} ${at(x.start)} to ${at(x.end)}  ${(x.sum / 1000).toFixed(0).padStart(6)} s`).join('\n')}\n`;
  }
  if (s.failures.length > 0) {
    const more = s.failures.length > FAILURES_NAMED ? `\n  … and ${s.failures.length - FAILURES_NAMED} more` : '';
    text += `\nFailed:\n${s.failures.slice(0, FAILURES_NAMED).map((f) => `  ${f}`).join('\n')}${more}\n`;
  }
  return `${text}\nTests: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n`;
}

function firstLine(e: { message?: string; name?: string } | undefined): string {
  if (!e) return '(no error recorded)';
  const line = (e.message ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return `${e.name ?? 'Error'}: ${line}`.slice(0, 300);
}
