import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Builds the console once before the browser tests, so they run against what `npm start` serves. */
export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const root = path.resolve(import.meta.dirname, '..');
  const r = spawnSync('npm', ['run', 'build', '-w', '@hublink/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('console build failed');
}
