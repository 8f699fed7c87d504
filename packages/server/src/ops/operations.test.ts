import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountInfo, listAnnouncements, listFr, listServices } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../db/connect';
import { createTestApp, describeEachDatabase, signIn, type TestApp } from '../../test/helpers';
import { ops } from '../../test/ops';
import { OPS_COMMANDS } from './commands';
import { opsReference } from './run';

/*
 * docs/operations.md is the operator's manual: its fresh-install sequence is run here line by line,
 * and its command reference is the CLI's own usage text.
 */

const REPO = path.resolve(import.meta.dirname, '../../../..');
const MANUAL = fs.readFileSync(path.join(REPO, 'docs/operations.md'), 'utf8');
const BIN = path.join(REPO, 'packages/server/bin/hublink.mjs');

function between(marker: string): string {
  const m = new RegExp(`<!-- ${marker}:start -->\\n([\\s\\S]*?)<!-- ${marker}:end -->`).exec(MANUAL);
  if (!m) throw new Error(`docs/operations.md has no ${marker} section`);
  return m[1]!;
}

/** The command lines of the fresh-install block, split as a shell would split these simple lines. */
const FRESH_INSTALL = between('fresh-install')
  .split('\n')
  .filter((l) => l.startsWith('hublink '))
  .map((l) => [...l.slice('hublink '.length).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!));

/** What the tenant made by the sequence sees in the console. */
async function expectWorkingTenant(t: TestApp) {
  const login = await signIn(t, 'acmetech', 'Acme2026ok');
  expect(login.code, login.msg).toBe(200);
  const token = login.data!.access_token;
  expect((await t.call(accountInfo, { token })).data).toMatchObject({ username: 'acmetech', auth: { quagga: 1, default_route: 1 } });
  const services = await t.call(listServices, { token, query: { page: 1, limit: 10 } });
  expect(services.data!.map((s) => [s.service_name, s.quantity])).toEqual([['智能组网标准版', 200]]);
  const pops = await t.call(listFr, { token, query: { page: 1, limit: 10 } });
  expect(pops.data!.map((p) => [p.name, p.area.map((a) => [a.name, a.bandwidth])])).toEqual([
    [
      '华东接入点',
      [
        ['华东', 100],
        ['华南', 50],
      ],
    ],
  ]);
  const news = await t.call(listAnnouncements, { token, query: { page: 1, limit: 10 } });
  expect(news.data!.map((a) => a.title)).toEqual(['欢迎使用HubLink']);
}

describe('docs/operations.md', () => {
  it('describes every command exactly as `hublink ops help all` prints it', () => {
    expect(between('commands').trim(), 'run `npm run -s ops -- help all` and paste its output into the commands block').toBe(['```text', opsReference(OPS_COMMANDS), '```'].join('\n'));
  });

  it('mentions every command in its day-to-day table', () => {
    const table = MANUAL.slice(MANUAL.indexOf('## Day to day'), MANUAL.indexOf('## Every command'));
    for (const c of OPS_COMMANDS) expect(table, `${c.group} ${c.name}`).toContain(`${c.group} ${c.name}`);
  });

  describe('fresh install, run as the operator runs it: each line its own process on an empty data dir', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-ops-'));
    let t: TestApp;
    const env = { ...process.env, HUBLINK_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', S3_URL: '', LOG_LEVEL: 'warn' };

    beforeAll(async () => {
      for (const argv of FRESH_INSTALL) {
        const { code, err } = await new Promise<{ code: number; err: string }>((resolve) =>
          execFile(process.execPath, [BIN, ...argv], { cwd: REPO, env }, (error, _out, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, err: stderr })),
        );
        expect(code, `hublink ${argv.join(' ')}\n${err}`).toBe(0);
      }
      t = await createTestApp('sqlite', { database: connect({ dataDir }) });
      // One process per line, each starting Node and tsx: over a minute on a loaded 2-core machine.
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('ends with a tenant that signs in to its plan, service, POP resource and announcement', async () => {
      expect(FRESH_INSTALL.length).toBeGreaterThan(5);
      await expectWorkingTenant(t);
    });
  });
});

describeEachDatabase('the fresh-install sequence on each database', (t) => {
  // The suite runs from the repository's root, where the manual's relative paths point.
  it('works run in-process too', async () => {
    expect(path.resolve('docs/operations.md')).toBe(path.join(REPO, 'docs/operations.md'));
    for (const argv of FRESH_INSTALL.filter((a) => a[0] === 'ops')) {
      const res = await ops(t(), argv.slice(1));
      expect(res.code, `${argv.join(' ')}\n${res.err}`).toBe(0);
    }
    await expectWorkingTenant(t());
  });
});
