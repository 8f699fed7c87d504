import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * How long any test waits for a condition (Testing Library's waitFor/findBy, expect.poll, e2e page waits).
 * Generous because the suite shares a loaded 2-core machine; a passing wait returns as soon as its condition holds.
 */
const CONDITION_TIMEOUT_MS = 30_000;
const expectPoll = { poll: { timeout: CONDITION_TIMEOUT_MS } };

export default defineConfig({
  test: {
    reporters: ['default', './scripts/plain-summary.ts'],
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['packages/contract/src/**/*.test.ts', 'packages/server/src/**/*.test.ts', 'packages/agent/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: expectPoll,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['packages/web/src/test/setup.ts'],
          provide: { conditionTimeoutMs: CONDITION_TIMEOUT_MS },
          // A whole form filled, checked and sent took over a minute at a load average of 15 on 2 cores.
          testTimeout: 6 * CONDITION_TIMEOUT_MS,
          expect: expectPoll,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          provide: { conditionTimeoutMs: CONDITION_TIMEOUT_MS },
          expect: expectPoll,
        },
      },
    ],
  },
});
