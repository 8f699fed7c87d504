import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE, downloadIos, downloadLinux, downloadVersion, downloadWindows, fmt, LIMITS, M } from '@hublink/contract';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type TestApp } from '../../test/helpers';
import { ops } from '../../test/ops';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-ops-releases-'));
const file = (name: string, body: string) => {
  fs.writeFileSync(path.join(dir, name), body);
  return path.join(dir, name);
};

/** The releases and the stored packages: a refused command leaves both as they were. */
async function state(t: TestApp) {
  const rows = await t.db.selectFrom('client_release').selectAll().orderBy('id').execute();
  const files = await Promise.all(rows.map(async (r) => (r.file_key ? (await t.ctx.storage.get(0, r.file_key))?.body.toString() : null)));
  return { rows, files };
}

async function refused(t: TestApp, argv: string[], code: 1 | 2, message: string) {
  const before = await state(t);
  const run = await ops(t, argv);
  expect({ argv, code: run.code, out: run.out }).toEqual({ argv, code, out: '' });
  expect(run.err).toContain(message);
  expect(await state(t)).toEqual(before);
}

const publish = (t: TestApp, ...args: string[]) => ops(t, ['releases', 'publish', ...args, '--json']);

describeEachDatabase('hublink ops releases', (t) => {
  afterEach(async () => {
    for (const r of (await ops(t(), ['releases', 'list', '--json'])).json<{ id: number }[]>()) await ops(t(), ['releases', 'withdraw', String(r.id)]);
  });

  it('publishes a package from disk: the download page offers it and the download serves its bytes', async () => {
    const run = await publish(t(), '--platform', 'windows', '--version', '2.1.0', '--notes', '修复问题\n提升速度', '--file', file('HubLink-2.1.0.exe', 'v2.1.0!'));
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ id: expect.any(Number), platform: 'windows', panel: '', arch: '', version: '2.1.0', file: 'HubLink-2.1.0.exe', size: 7, url: '', published: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /) });
    expect((await t().call(downloadVersion)).data!.windows).toMatchObject({ version: '2.1.0', notes: '修复问题\n提升速度', source: 'file', size: 7 });
    expect((await t().call(downloadWindows)).file).toMatchObject({ filename: 'HubLink-2.1.0.exe', body: Buffer.from('v2.1.0!') });

    // --file-name names the download whatever the file on disk is called.
    expect((await publish(t(), '--platform', 'windows', '--version', '2.2.0', '--file', file('build-output.bin', 'v2.2.0'), '--file-name', 'HubLink-2.2.0.exe')).code).toBe(0);
    expect((await t().call(downloadWindows)).file).toMatchObject({ filename: 'HubLink-2.2.0.exe', body: Buffer.from('v2.2.0') });
  });

  it('publishes a link and a Linux package by panel and architecture', async () => {
    expect((await publish(t(), '--platform', 'ios', '--version', '3.0', '--url', 'https://apps.apple.com/cn/app/hublink/id000000')).code).toBe(0);
    expect(await t().call(downloadIos)).toMatchObject({ status: 302, location: 'https://apps.apple.com/cn/app/hublink/id000000' });
    expect((await publish(t(), '--platform', 'linux', '--panel', 'cli', '--arch', 'arm64', '--version', '1.0.0', '--file', file('hublink-cli.tar.gz', 'cli/arm64'))).code).toBe(0);
    const data = (await t().call(downloadVersion)).data!;
    expect(data.ios).toMatchObject({ version: '3.0', source: 'url', size: null });
    expect(data.linux).toEqual([expect.objectContaining({ panel: 'cli', platform: 'arm64', version: '1.0.0' })]);
    expect((await t().call(downloadLinux, { query: { panel: 'cli', platform: 'arm64' } })).file!.body).toEqual(Buffer.from('cli/arm64'));
  });

  it('lists releases newest first and withdraws one: the one before it is offered again, its package deleted', async () => {
    const first = (await publish(t(), '--platform', 'windows', '--version', '1.0', '--file', file('a.exe', 'one'))).json<{ id: number }>();
    const second = (await publish(t(), '--platform', 'windows', '--version', '1.1', '--file', file('b.exe', 'two'))).json<{ id: number }>();
    const list = await ops(t(), ['releases', 'list', '--json']);
    expect(list.json<{ id: number }[]>().map((r) => r.id)).toEqual([second.id, first.id]);
    const table = await ops(t(), ['releases', 'list', '--limit', '1']);
    expect(table.out.trim().split('\n')).toHaveLength(2);
    expect(table.out).toContain('b.exe');

    const run = await ops(t(), ['releases', 'withdraw', String(second.id)]);
    expect({ code: run.code, out: run.out }).toEqual({ code: 0, out: `release ${second.id} withdrawn\n` });
    expect((await t().call(downloadVersion)).data!.windows!.version).toBe('1.0');
    expect(await state(t())).toMatchObject({ rows: [{ id: first.id }], files: ['one'] });
    await ops(t(), ['releases', 'withdraw', String(first.id)]);
    expect((await t().call(downloadVersion)).data!.windows).toBeNull();
    expect(await t().call(downloadWindows)).toMatchObject({ code: CODE.notFound, msg: M.downloadNone });
  });

  it('refuses bad input with the console’s messages (exit 2) and what the service refuses (exit 1), storing nothing', async () => {
    await publish(t(), '--platform', 'windows', '--version', '1.0', '--file', file('keep.exe', 'keep'));
    const pkg = file('p.exe', 'p');
    await refused(t(), ['releases', 'publish', '--version', '1.0', '--file', pkg], 2, `--platform: ${M.releasePlatformInvalid}`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--file', pkg], 2, `--version: ${M.releaseVersionRequired}`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1 0', '--file', pkg], 2, fmt(M.releaseVersionInvalid, { n: LIMITS.releaseVersionMax }));
    await refused(t(), ['releases', 'publish', '--platform', 'linux', '--version', '1.0', '--file', pkg], 2, `--panel: ${M.releasePanelRequired}`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--panel', 'cli', '--version', '1.0', '--file', pkg], 2, M.releaseLinuxOnly);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0'], 2, M.releaseSourceRequired);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--file', pkg, '--url', 'https://example.com/a.exe'], 2, M.releaseSourceRequired);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--url', 'ftp://example.com/a.exe'], 2, `--url: ${fmt(M.releaseUrlInvalid, { n: LIMITS.releaseUrlMax })}`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--file', file('bad name.exe', 'x')], 2, `--file: ${fmt(M.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax })}`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--file', path.join(dir, 'missing.exe')], 2, `--file: cannot read ${path.join(dir, 'missing.exe')}: no such file`);
    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--url', 'https://example.com/a.exe', '--file-name', 'a.exe'], 2, '--file-name goes with --file');
    await refused(t(), ['releases', 'withdraw', 'x'], 2, '<id>: id must be a whole number');

    await refused(t(), ['releases', 'publish', '--platform', 'windows', '--version', '1.0', '--file', file('empty.exe', '')], 1, M.releaseFileEmpty);
    await refused(t(), ['releases', 'withdraw', '999999'], 1, M.releaseNotFound);
  });
});
