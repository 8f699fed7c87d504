import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * How long any test waits for a condition (Testing Library's waitFor/findBy, expect.poll, e2e page waits).
 * Generous because the suite shares a loaded 2-core machine; a passing wait returns as soon as its condition holds.
 */
const CONDITION_TIMEOUT_MS = 30_000;
const expectPoll = { poll: { timeout: CONDITION_TIMEOUT_MS } };

/**
 * Files run two at a time (up to four on a bigger machine, within PostgreSQL's default 100
 * connections): most wait on a database, a socket or a browser rather than the processor. Some cannot
 * share the machine and run one at a time afterwards:
 * - `server-serial`: network namespaces, OpenVPN, FRR and measured times (a heartbeat, a cut-off, a
 *   failover), alone on the machine;
 * - `server-exclusive`: an exclusive resource but not the processor — the shared Redis (whose channels
 *   every app on it shares), server processes and clusters, backups, migrations with locks, slapd.
 * The e2e files (a browser and a server each) run one at a time. `npm test` (scripts/test.ts) runs
 * the web files beside server-serial (raised above them), and server-exclusive beside e2e; a plain
 * `vitest run` runs the groups in order.
 */
const PARALLEL_WORKERS = Math.min(4, Math.max(2, availableParallelism()));
const EXCLUSIVE_SERVER_FILES = [
  // Redis
  'packages/server/src/core/pubsub.test.ts',
  'packages/server/src/core/store.test.ts',
  'packages/server/src/gateway/instances.test.ts',
  'packages/server/src/modules/router/stream.test.ts',
  'packages/server/src/startup.test.ts',
  // server processes, clusters, backups
  'packages/server/src/restart.test.ts',
  'packages/server/src/crash.test.ts',
  'packages/server/src/gateway/crash.test.ts',
  'packages/server/src/workers.test.ts',
  'packages/server/src/core/clusterHub.test.ts',
  'packages/server/src/core/lifecycle.test.ts',
  'packages/server/src/core/metricsPort.test.ts',
  'packages/server/src/ops/backup.test.ts',
  'packages/server/src/ops/operations.test.ts',
  // migrations with locks and timeouts
  'packages/server/src/db/upgrade.test.ts',
  'packages/server/src/db/failedMigration.test.ts',
  'packages/server/src/db/migrationRules.test.ts',
  // slapd
  'packages/server/src/domain/ldap.test.ts',
  'packages/server/src/modules/ldap/*.test.ts',
];
const SERIAL_SERVER_FILES = [
  // OpenVPN and measured times
  'packages/server/src/gateway/dataplane.test.ts',
  'packages/server/src/gateway/diagnosis.test.ts',
  'packages/agent/src/openvpn/device.test.ts',
  // the data-plane laboratory and its suites: namespaces, agent processes, OpenVPN and FRR
  'packages/server/src/dataplane/*.test.ts',
  // network namespaces, nftables and sysctls of the agent's host primitives
  'packages/agent/src/host/*.test.ts',
  // FRR daemons in network namespaces
  'packages/agent/src/frr/*.test.ts',
];
/**
 * The web and server files share each worker's module registry (`isolate: false`): importing React,
 * antd and the console, or the server's modules and drivers, again for every file was half of those
 * projects' time. A file that replaces a module (`vi.mock`) needs a registry of its own, or it would get
 * the module its worker already loaded: those run isolated (web-mocks, server-mocks), found by reading
 * the files.
 */
const ROOT = path.dirname(fileURLToPath(import.meta.url));
function mockingFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(ROOT, dir, f), 'utf8')))
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}
const WEB_MOCKING_FILES = mockingFiles('packages/web/src');
const SERVER_MOCKING_FILES = ['packages/contract/src', 'packages/server/src', 'packages/agent/src'].flatMap(mockingFiles);
// The exclusive files share their modules too: one among them that calls vi.mock would have nowhere
// isolated to run (it needs the exclusive resource), so the config refuses it.
const inExclusive = (f: string) => EXCLUSIVE_SERVER_FILES.some((g) => (g.includes('*') ? f.startsWith(g.slice(0, g.indexOf('*'))) : f === g));
const exclusiveMocking = SERVER_MOCKING_FILES.filter(inExclusive);
if (exclusiveMocking.length > 0) throw new Error(`vi.mock in a server-exclusive file, whose files share their modules: ${exclusiveMocking.join(', ')}`);
const webTest = {
  environment: 'jsdom' as const,
  setupFiles: ['packages/web/src/test/setup.ts'],
  provide: { conditionTimeoutMs: CONDITION_TIMEOUT_MS },
  // A whole form filled, checked and sent took over a minute at a load average of 15 on 2 cores.
  testTimeout: 6 * CONDITION_TIMEOUT_MS,
  expect: expectPoll,
  maxWorkers: PARALLEL_WORKERS,
  sequence: { groupOrder: 0 },
};
const SERVER_FILES = ['packages/contract/src/**/*.test.ts', 'packages/server/src/**/*.test.ts', 'packages/agent/src/**/*.test.ts'];
const serverTest = { environment: 'node' as const, testTimeout: 30_000, hookTimeout: 60_000, expect: expectPoll };

export default defineConfig({
  test: {
    reporters: ['default', './scripts/plain-summary.ts'],
    projects: [
      {
        test: {
          name: 'server',
          include: SERVER_FILES,
          exclude: [...SERIAL_SERVER_FILES, ...EXCLUSIVE_SERVER_FILES, ...SERVER_MOCKING_FILES],
          isolate: false,
          ...serverTest,
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // No server file replaces a module today: the project then has none (vitest accepts that beside the others).
        test: {
          name: 'server-mocks',
          include: SERVER_MOCKING_FILES.length > 0 ? SERVER_MOCKING_FILES : ['no-such-dir/**'],
          exclude: [...SERIAL_SERVER_FILES, ...EXCLUSIVE_SERVER_FILES],
          ...serverTest,
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: { name: 'server-serial', include: SERIAL_SERVER_FILES, ...serverTest, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        test: {
          name: 'server-exclusive',
          include: EXCLUSIVE_SERVER_FILES,
          isolate: false,
          ...serverTest,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        plugins: [react()],
        test: { name: 'web', include: ['packages/web/src/**/*.test.{ts,tsx}'], exclude: WEB_MOCKING_FILES, isolate: false, ...webTest },
      },
      {
        plugins: [react()],
        test: { name: 'web-mocks', include: WEB_MOCKING_FILES, ...webTest },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          // Each spec starts its own server and browser; the server's modules and Playwright load once.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
          provide: { conditionTimeoutMs: CONDITION_TIMEOUT_MS },
          expect: expectPoll,
        },
      },
    ],
  },
});
