// A server for the drain test (src/core/lifecycle.test.ts): the real app and the real shutdown path,
// plus one call that answers only when the test writes a line to this process's stdin.
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { serveUntilSignal } from '../src/core/lifecycle';

const dataDir = process.argv[2] ?? path.join(os.tmpdir(), 'hublink-drain');
const config = { ...loadConfig({ HUBLINK_DATA_DIR: dataDir, LOG_FORMAT: 'json', LOG_LEVEL: 'info' }), prettyLogs: false };
const app = await buildApp(config);

let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => (release = resolve));
let go: () => void = () => undefined;
const closeMayGoOn = new Promise<void>((resolve) => (go = resolve));
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'release') release();
  if (line === 'go') go();
});

// With `hold` the close waits in preClose, after routing knows it is closing and before the listener
// and the idle connections close: the moment a balancer's request can still arrive on an open connection.
if (process.argv[3] === 'hold') {
  app.addHook('preClose', async () => {
    console.log('PRECLOSE');
    await closeMayGoOn;
  });
}

app.get('/api/v1/probe/slow', async () => {
  console.log('SLOW-STARTED');
  await released;
  return { code: 200, msg: 'finished' };
});

await serveUntilSignal(app, { port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`LISTENING ${typeof address === 'object' && address ? address.port : ''}`);
