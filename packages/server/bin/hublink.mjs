#!/usr/bin/env node
// Runs the TypeScript entry point through tsx, so the CLI needs no build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const main = path.join(import.meta.dirname, '../src/main.ts');
const r = spawnSync(process.execPath, [tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
