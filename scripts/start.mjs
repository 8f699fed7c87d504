// `npm start`: builds the console when it has not been built yet, then serves console + API
// (`npm start -- --demo`: with a demo tenant and simulated devices).
//
// The console is built into packages/web/dist when its index.html is missing (or HUBLINK_REBUILD=1).
// With HUBLINK_WEB_DIST set the server serves that folder and nothing is built; HUBLINK_SKIP_BUILD=1
// skips the build too (the server then runs without a console if none was built).
//
// Exit status: the server's own; 128 + the signal's number when a signal ended it (a supervisor that
// restarts on failure must see the crash). A SIGINT/SIGTERM sent to this process is passed on and the
// server drains and exits 0.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist/index.html');
const build = process.env.HUBLINK_REBUILD === '1' || (!process.env.HUBLINK_WEB_DIST && process.env.HUBLINK_SKIP_BUILD !== '1' && !fs.existsSync(dist));

if (build) {
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
server.on('exit', (code, signal) => {
  if (signal) {
    const status = 128 + (os.constants.signals[signal] ?? 0);
    console.error(`hublink: the server was killed by ${signal}; exiting with ${status}`);
    process.exit(status);
  }
  process.exit(code ?? 1);
});
