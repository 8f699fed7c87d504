import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['packages/web/src/test/setup.ts'],
          testTimeout: 30_000,
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
        },
      },
    ],
  },
});
