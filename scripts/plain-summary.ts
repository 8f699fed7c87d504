import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, 'Tests: N passed, N failed, N skipped', for tools that read it.
 * A test file that failed outside its tests (it could not be imported, a hook threw) counts as one
 * failure, so the line never reads 0 failed for a run that failed.
 */
export default class PlainSummary implements Reporter {
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
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
