import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary names (where the suite's time goes, for CI's budget). */
const SLOWEST = 25;

/**
 * Ends the run with one plain line, 'Tests: N passed, N failed, N skipped', for tools that read it.
 * A test file that failed outside its tests (it could not be imported, a hook threw) counts as one
 * failure, so the line never reads 0 failed for a run that failed. Before it, the slowest files.
 */
export default class PlainSummary implements Reporter {
  /** Each project's first file start and last file end: its share of the run's wall time. */
  private readonly spans = new Map<string, { start: number; end: number; sum: number }>();

  onTestModuleStart(m: TestModule) {
    const span = this.spans.get(m.project.name);
    if (span) span.start = Math.min(span.start, Date.now());
    else this.spans.set(m.project.name, { start: Date.now(), end: Date.now(), sum: 0 });
  }

  onTestModuleEnd(m: TestModule) {
    const span = this.spans.get(m.project.name);
    if (!span) return;
    span.end = Math.max(span.end, Date.now());
    const d = m.diagnostic();
    span.sum += d.collectDuration + d.setupDuration + d.duration;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const m of modules) {
      let failedTests = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') failedTests++;
        else count.skipped++;
      }
      count.failed += failedTests > 0 ? failedTests : m.state() === 'failed' ? 1 : 0;
    }
    const slow = modules
      .map((m) => {
        const d = m.diagnostic();
        return { name: `${m.project.name} ${relative(process.cwd(), m.moduleId)}`, ms: d.collectDuration + d.setupDuration + d.duration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST);
    if (slow.length > 1) {
      process.stdout.write(`\nSlowest test files:\n${slow.map((x) => `  ${(x.ms / 1000).toFixed(1).padStart(7)} s  ${x.name}`).join('\n')}\n`);
    }
    if (this.spans.size > 1) {
      const rows = [...this.spans].sort((a, b) => a[1].start - b[1].start);
      const t0 = rows[0]![1].start;
      const at = (ms: number) => `${((ms - t0) / 1000).toFixed(0).padStart(5)} s`;
      process.stdout.write(`\nProjects (from, to, files' summed time):\n${rows.map(([name, s]) => `  ${name.padEnd(14)} ${at(s.start)} to ${at(s.end)}  ${(s.sum / 1000).toFixed(0).padStart(6)} s`).join('\n')}\n`);
    }
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
