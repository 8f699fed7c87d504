import {
  CODE,
  downloadAndroid,
  downloadIos,
  downloadLinux,
  downloadMacos,
  downloadVersion,
  downloadWindows,
  endpointUrl,
  fmt,
  LIMITS,
  M,
} from '@hublink/contract';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { listReleases, publishRelease, withdrawRelease, type ReleaseInput } from './index';

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const bytes = (text: string) => Buffer.from(text);

/** What the tables and the storage hold: a refused publish must leave both as they were. */
async function state(t: TestApp) {
  const rows = await t.db.selectFrom('client_release').selectAll().orderBy('id').execute();
  const files = await Promise.all(rows.map(async (r) => (r.file_key ? (await t.ctx.storage.get(0, r.file_key))?.body.toString() : null)));
  return { rows, files };
}

describeEachDatabase('client releases and /api/download/* (public)', (t) => {
  afterEach(async () => {
    for (const r of await listReleases(t().ctx)) await withdrawRelease(t().ctx, r.id);
  });

  it('offers nothing before the operator publishes', async () => {
    expect(await t().call(downloadVersion)).toMatchObject({ code: CODE.ok, data: { windows: null, macos: null, android: null, ios: null, linux: [] } });
    for (const e of [downloadWindows, downloadMacos, downloadAndroid, downloadIos]) {
      expect(await t().call(e), e.path).toMatchObject({ code: CODE.notFound, msg: M.downloadNone, status: 200 });
    }
    expect(await t().call(downloadLinux, { query: { panel: 'cli', platform: 'amd64' } })).toMatchObject({ code: CODE.notFound, msg: M.downloadNone });
  });

  it('serves the newest package of a platform, streamed with its name; a withdrawal brings back the one before', async () => {
    const first = await publishRelease(t().ctx, { platform: 'windows', version: '2.0.0', notes: '首个版本', file: { name: 'HubLink-2.0.0.exe', body: bytes('v2.0.0') } });
    const second = await publishRelease(t().ctx, { platform: 'windows', version: '2.1.0', notes: '修复问题\n提升速度', file: { name: 'HubLink-2.1.0.exe', body: bytes('v2.1.0!') } });
    expect(second).toEqual({
      id: expect.any(Number),
      platform: 'windows',
      panel: null,
      arch: null,
      version: '2.1.0',
      notes: '修复问题\n提升速度',
      file_name: 'HubLink-2.1.0.exe',
      size: 7,
      url: null,
      create_time: expect.stringMatching(TIME),
    });
    const version = await t().call(downloadVersion);
    expect(version.data!.windows).toEqual({ version: '2.1.0', notes: '修复问题\n提升速度', create_time: expect.stringMatching(TIME), source: 'file', size: 7 });
    expect(version.data!.macos).toBeNull();

    const file = await t().call(downloadWindows);
    expect(file.file).toEqual({ filename: 'HubLink-2.1.0.exe', contentType: 'application/octet-stream', body: bytes('v2.1.0!') });
    const raw = await t().app.inject({ method: 'GET', url: '/api/download/windows' });
    expect(raw.headers).toMatchObject({ 'content-length': '7', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });

    await withdrawRelease(t().ctx, second.id);
    expect((await t().call(downloadWindows)).file!.body).toEqual(bytes('v2.0.0'));
    expect((await t().call(downloadVersion)).data!.windows!.version).toBe('2.0.0');
    // The withdrawn package is gone from storage too.
    expect(await state(t())).toMatchObject({ rows: [{ id: first.id }], files: ['v2.0.0'] });
    await withdrawRelease(t().ctx, first.id);
    expect(await t().call(downloadWindows)).toMatchObject({ code: CODE.notFound });
  });

  it('sends the browser to a release published as a link (an app store), and serves an Android package as one', async () => {
    await publishRelease(t().ctx, { platform: 'ios', version: '3.0', url: 'https://apps.apple.com/cn/app/hublink/id000000' });
    await publishRelease(t().ctx, { platform: 'macos', version: '3.0', url: 'https://apps.apple.com/cn/app/hublink-mac/id000001' });
    await publishRelease(t().ctx, { platform: 'android', version: '3.0.1', file: { name: 'hublink-3.0.1.apk', body: bytes('apk') } });
    expect(await t().call(downloadIos)).toMatchObject({ status: 302, location: 'https://apps.apple.com/cn/app/hublink/id000000' });
    expect(await t().call(downloadMacos)).toMatchObject({ status: 302, location: 'https://apps.apple.com/cn/app/hublink-mac/id000001' });
    expect((await t().call(downloadAndroid)).file!.contentType).toBe('application/vnd.android.package-archive');
    const data = (await t().call(downloadVersion)).data!;
    expect(data.ios).toMatchObject({ version: '3.0', source: 'url', size: null });
    expect(data.android).toMatchObject({ version: '3.0.1', source: 'file', size: 3 });
    // Where the link goes is for the download call; the version list says only that it is one.
    expect(JSON.stringify(data)).not.toContain('apple.com');
  });

  it('lists Linux by panel and platform, the newest of each, and downloads the one asked for', async () => {
    const linux = (panel: 'cli' | 'gui', arch: 'amd64' | 'arm64', version: string): ReleaseInput => ({
      platform: 'linux',
      panel,
      arch,
      version,
      file: { name: `hublink-${panel}-${version}-${arch}.tar.gz`, body: bytes(`${panel}/${arch}/${version}`) },
    });
    await publishRelease(t().ctx, linux('cli', 'amd64', '1.0.0'));
    await publishRelease(t().ctx, linux('gui', 'amd64', '1.0.0'));
    await publishRelease(t().ctx, linux('cli', 'arm64', '1.0.0'));
    await publishRelease(t().ctx, linux('cli', 'amd64', '1.1.0'));
    const data = (await t().call(downloadVersion)).data!;
    expect(data.linux.map((r) => [r.panel, r.platform, r.version])).toEqual([
      ['cli', 'amd64', '1.1.0'],
      ['cli', 'arm64', '1.0.0'],
      ['gui', 'amd64', '1.0.0'],
    ]);
    expect(data.linux[0]).toEqual({ panel: 'cli', platform: 'amd64', version: '1.1.0', notes: '', create_time: expect.stringMatching(TIME), source: 'file', size: 15 });

    const got = await t().call(downloadLinux, { query: { panel: 'cli', platform: 'amd64' } });
    expect(got.file).toMatchObject({ filename: 'hublink-cli-1.1.0-amd64.tar.gz', body: bytes('cli/amd64/1.1.0') });
    expect((await t().call(downloadLinux, { query: { panel: 'cli', platform: 'arm64' } })).file!.body).toEqual(bytes('cli/arm64/1.0.0'));
    expect(await t().call(downloadLinux, { query: { panel: 'gui', platform: 'arm64' } })).toMatchObject({ code: CODE.notFound, msg: M.downloadNone });
    expect(await t().call(downloadLinux, { query: { platform: 'amd64' } })).toMatchObject({ code: CODE.invalid, msg: M.downloadPanelRequired });
    expect(await t().call(downloadLinux, { query: { panel: 'cli' } })).toMatchObject({ code: CODE.invalid, msg: M.downloadPlatformRequired });
    expect(await t().call(downloadLinux, { query: { panel: 'tui', platform: 'amd64' } })).toMatchObject({ code: CODE.invalid, msg: M.downloadPanelRequired });
    // Other platforms have no panels: a Linux package is never one of theirs.
    expect(await t().call(downloadWindows)).toMatchObject({ code: CODE.notFound });
  });

  it('refuses what cannot be published with the rule’s message, storing nothing', async () => {
    await publishRelease(t().ctx, { platform: 'windows', version: '1.0', file: { name: 'a.exe', body: bytes('a') } });
    const before = await state(t());
    const file = { name: 'b.exe', body: bytes('b') };
    const cases: [ReleaseInput, string][] = [
      [{ platform: 'beos' as 'linux', version: '1', file }, M.releasePlatformInvalid],
      [{ platform: 'linux', version: '1', arch: 'amd64', file }, M.releasePanelRequired],
      [{ platform: 'linux', version: '1', panel: 'cli', file }, M.releaseArchRequired],
      [{ platform: 'linux', version: '1', panel: 'cli', arch: 'sparc' as 'amd64', file }, M.releaseArchRequired],
      [{ platform: 'windows', version: '1', panel: 'cli', file }, M.releaseLinuxOnly],
      [{ platform: 'windows', version: '', file }, M.releaseVersionRequired],
      [{ platform: 'windows', version: 'v 1', file }, fmt(M.releaseVersionInvalid, { n: LIMITS.releaseVersionMax })],
      [{ platform: 'windows', version: '1'.repeat(LIMITS.releaseVersionMax + 1), file }, fmt(M.releaseVersionInvalid, { n: LIMITS.releaseVersionMax })],
      [{ platform: 'windows', version: '1', notes: 'x'.repeat(LIMITS.releaseNotesMax + 1), file }, fmt(M.releaseNotesTooLong, { n: LIMITS.releaseNotesMax })],
      [{ platform: 'windows', version: '1' }, M.releaseSourceRequired],
      [{ platform: 'windows', version: '1', url: 'https://example.com/a.exe', file }, M.releaseSourceRequired],
      [{ platform: 'ios', version: '1', url: 'javascript:alert(1)' }, fmt(M.releaseUrlInvalid, { n: LIMITS.releaseUrlMax })],
      [{ platform: 'ios', version: '1', url: 'https://user:pw@example.com/' }, fmt(M.releaseUrlInvalid, { n: LIMITS.releaseUrlMax })],
      [{ platform: 'windows', version: '1', file: { name: '../etc/passwd', body: bytes('x') } }, fmt(M.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax })],
      [{ platform: 'windows', version: '1', file: { name: 'a"b.exe', body: bytes('x') } }, fmt(M.releaseFileNameInvalid, { n: LIMITS.releaseFileNameMax })],
      [{ platform: 'windows', version: '1', file: { name: 'empty.exe', body: Buffer.alloc(0) } }, M.releaseFileEmpty],
    ];
    for (const [input, msg] of cases) {
      await expect(publishRelease(t().ctx, input), JSON.stringify({ ...input, file: input.file?.name })).rejects.toMatchObject({ code: CODE.invalid, message: msg });
    }
    expect(await state(t())).toEqual(before);
    expect((await t().call(downloadWindows)).file!.body).toEqual(bytes('a'));
  });

  it('lists releases for the operator newest first, and refuses to withdraw one that is not there', async () => {
    const a = await publishRelease(t().ctx, { platform: 'windows', version: '1.0', file: { name: 'a.exe', body: bytes('a') } });
    const b = await publishRelease(t().ctx, { platform: 'linux', panel: 'gui', arch: 'arm64', version: '1.0', notes: '图形界面', url: 'https://mirror.example.com/hublink.deb' });
    expect((await listReleases(t().ctx)).map((r) => [r.id, r.platform, r.panel, r.arch, r.url])).toEqual([
      [b.id, 'linux', 'gui', 'arm64', 'https://mirror.example.com/hublink.deb'],
      [a.id, 'windows', null, null, null],
    ]);
    await expect(withdrawRelease(t().ctx, 999_999)).rejects.toMatchObject({ code: CODE.notFound, message: M.releaseNotFound });
  });

  it('lives at /api/download/*, outside /api/v1, and answers a signed-in caller the same as anyone', async () => {
    await publishRelease(t().ctx, { platform: 'windows', version: '1.0', file: { name: 'a.exe', body: bytes('a') } });
    expect(endpointUrl(downloadVersion)).toBe('/api/download/version');
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/download/version' })).json()).toMatchObject({ code: 404 });
    const raw = await t().app.inject({ method: 'GET', url: '/api/download/version' });
    expect(raw.headers['cache-control']).toBe('public, max-age=60');
    const { token } = await newAccount(t());
    expect((await t().call(downloadVersion, { token })).data).toEqual((await t().call(downloadVersion)).data);
    // Every call of the app is mounted where its contract says.
    for (const { url, endpoint } of t().app.endpoints) expect(url, endpoint.path).toBe(endpointUrl(endpoint));
    // The API's description says a download answers the package or a redirect.
    const doc = (await t().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, { get: { responses: Record<string, { content?: object }> } }> }>();
    const answers = doc.paths['/api/download/linux']!.get.responses;
    expect(Object.keys(answers).sort()).toEqual(['200', '302', 'default']);
    expect(Object.keys(answers['200']!.content!)).toEqual(['application/octet-stream', 'application/json']);
  });
});
