// `npm start`: builds the console when it has not been built yet, then serves console + API
// (`npm start -- --demo`: with a demo tenant and simulated devices).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist/index.html');

if (!fs.existsSync(dist) || process.env.HUBLINK_REBUILD === '1') {
  console.log('building the console (first start)…');
  const b = spawnSync('npm', ['run', 'build', '-w', '@hublink/web'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// libuv's thread pool is sized when it starts, from the environment: room for one password hash per
// core beside file and DNS work (the server's workers get the same, packages/server/src/core/cluster.ts).
const threads = process.env.UV_THREADPOOL_SIZE || String(Math.max(4, os.availableParallelism() + 2));
const server = spawn(process.execPath, [path.join(root, 'packages/server/bin/hublink.mjs'), 'start', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, UV_THREADPOOL_SIZE: threads },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
