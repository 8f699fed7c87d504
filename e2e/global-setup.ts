import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Builds the console once before the browser tests, so they run against what `npm start` serves. */
export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const root = path.resolve(import.meta.dirname, '..');
  // Vitest sets NODE_ENV=test, which would give React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const r = spawnSync('npm', ['run', 'build', '-w', '@hublink/web'], { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error('console build failed');
}
