// `npm run dev`: the server with watch (dev endpoints on) plus the Vite dev server proxying /api to it.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, HUBLINK_DEV_ENDPOINTS: process.env.HUBLINK_DEV_ENDPOINTS ?? '1', HUBLINK_ALLOW_PRIVATE_TARGETS: process.env.HUBLINK_ALLOW_PRIVATE_TARGETS ?? '1' };
const children = [
  spawn('npx', ['tsx', 'watch', 'packages/server/src/main.ts', 'start'], { cwd: root, stdio: 'inherit', env }),
  spawn('npx', ['vite'], { cwd: path.join(root, 'packages/web'), stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
