import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announcementInfo, CODE, fmt, LIMITS, listAnnouncements, M } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { ops } from '../../test/ops';

describeEachDatabase('hublink ops announcements', (t) => {
  let token = '';
  let dir = '';
  const rows = () => t().db.selectFrom('announcement').selectAll().orderBy('id').execute();
  const listed = async () => (await t().call(listAnnouncements, { token, query: { page: 1, limit: 100 } })).data!.map((a) => a.id);
  const contentOf = async (id: number) => (await t().call(announcementInfo, { token, query: { id } })).data?.content;
  const publish = async (...args: string[]) => {
    const res = await ops(t(), ['announcements', 'publish', ...args, '--json']);
    expect(res.code, res.err).toBe(0);
    return res.json<{ id: number }>().id;
  };

  beforeAll(async () => {
    token = (await newAccount(t())).token;
    dir = await mkdtemp(join(tmpdir(), 'hublink-ops-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes HTML, sanitised, that tenants see in their announcements at once', async () => {
    const id = await publish('--title', '系统升级公告', '--tag', '通知', '--content', '<p onclick="x()">今晚升级<script>alert(1)</script></p>');
    expect(await listed()).toContain(id);
    const res = await t().call(announcementInfo, { token, query: { id } });
    expect(res.data).toMatchObject({ id, title: '系统升级公告', tag: '通知', content: '<p>今晚升级</p>' });
  });

  it('renders Markdown given with --markdown or in a .md file', async () => {
    const inline = await publish('--title', 'md', '--content', '# 标题\n\n- **一**\n- [链接](javascript:alert(1))', '--markdown');
    expect(await contentOf(inline)).toBe('<h1>标题</h1>\n<ul>\n<li><strong>一</strong></li>\n<li><a>链接</a></li>\n</ul>');
    const file = join(dir, 'notes.MD');
    await writeFile(file, '## 维护窗口\n\n周六 *凌晨*<img src=x onerror=alert(1)>\n');
    const fromFile = await publish('--title', 'file', '--file', file);
    expect(await contentOf(fromFile)).toBe('<h2>维护窗口</h2>\n<p>周六 <em>凌晨</em><img src="x" /></p>');
    // Any other file is HTML, unless --markdown says otherwise.
    const html = join(dir, 'notice.html');
    await writeFile(html, '# not a heading');
    expect(await contentOf(await publish('--title', 'html', '--file', html))).toBe('# not a heading');
    expect(await contentOf(await publish('--title', 'html', '--file', html, '--markdown'))).toBe('<h1>not a heading</h1>');
  });

  it('holds a scheduled one back from tenants; list shows it, not yet released', async () => {
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const id = await publish('--title', '明年计划', '--content', '<p>later</p>', '--release-time', later);
    expect(await listed()).not.toContain(id);
    expect(await t().call(announcementInfo, { token, query: { id } })).toMatchObject({ code: CODE.notFound });
    const res = await ops(t(), ['announcements', 'list', '--json']);
    expect(res.code, res.err).toBe(0);
    const all = res.json<{ id: number; title: string; tag: string; release_time: string; released: string }[]>();
    // The latest release first: the scheduled one on top, then the rest newest first.
    expect(all[0]).toMatchObject({ id, title: '明年计划', tag: '', released: 'no' });
    expect(all.slice(1).map((a) => a.id)).toEqual(await listed());
    expect(all.slice(1).every((a) => a.released === 'yes')).toBe(true);
    expect((await ops(t(), ['announcements', 'list', '--limit', '2', '--json'])).json()).toEqual(all.slice(0, 2));
    expect((await ops(t(), ['announcements', 'list'])).out.split('\n')[0]).toMatch(/^id\s+title\s+tag\s+release_time\s+released$/);
  });

  it('refuses bad arguments (exit 2), publishing nothing', async () => {
    const before = await rows();
    const cases: [string[], string][] = [
      [['--title', 't'], 'give exactly one of --content and --file'],
      [['--title', 't', '--content', '<p>x</p>', '--file', join(dir, 'a.md')], 'give exactly one of --content and --file'],
      [['--content', '<p>x</p>'], `--title: ${M.announcementTitleRequired}`],
      [['--title', ' ', '--content', '<p>x</p>'], `--title: ${M.announcementTitleRequired}`],
      [['--title', 't', '--tag', 'x'.repeat(LIMITS.announcementTagMax + 1), '--content', '<p>x</p>'], `--tag: ${fmt(M.announcementTagTooLong, { n: LIMITS.announcementTagMax })}`],
      [['--title', 't', '--content', ''], `--content: ${M.announcementContentRequired}`],
      [['--title', 't', '--content', '<p>x</p>', '--release-time', 'soon'], '--release-time: release-time must be a date'],
    ];
    for (const [args, msg] of cases) {
      const res = await ops(t(), ['announcements', 'publish', ...args]);
      expect(res.code, msg).toBe(2);
      expect(res.err).toContain(msg);
    }
    expect(await ops(t(), ['announcements', 'list', '--limit', '1001'])).toMatchObject({ code: 2 });
    expect(await rows()).toEqual(before);
  });

  it('refuses a missing, unreadable or too big file and content that is nothing once sanitised (exit 1)', async () => {
    const before = await rows();
    const missing = join(dir, 'missing.md');
    expect(await ops(t(), ['announcements', 'publish', '--title', 't', '--file', missing])).toMatchObject({ code: 1, err: `cannot read ${missing}: no such file\n` });
    expect(await ops(t(), ['announcements', 'publish', '--title', 't', '--file', dir])).toMatchObject({ code: 1, err: `cannot read ${dir}: not a file\n` });
    const big = join(dir, 'big.html');
    await writeFile(big, 'x'.repeat(LIMITS.richTextMax + 1));
    expect(await ops(t(), ['announcements', 'publish', '--title', 't', '--file', big])).toMatchObject({
      code: 1,
      err: `${big} is too big: an announcement has at most ${LIMITS.richTextMax} characters\n`,
    });
    const huge = join(dir, 'huge.md');
    await writeFile(huge, Buffer.alloc(LIMITS.richTextMax * 4 + 1, 'a'));
    expect(await ops(t(), ['announcements', 'publish', '--title', 't', '--file', huge])).toMatchObject({ code: 1, err: expect.stringContaining('is too big') });
    expect(await ops(t(), ['announcements', 'publish', '--title', 't', '--content', '<script>alert(1)</script>'])).toMatchObject({
      code: 1,
      err: `${M.announcementContentRequired}\n`,
    });
    expect(await rows()).toEqual(before);
  });

  it('withdraws one, so tenants no longer see it; an unknown id is refused', async () => {
    const id = await publish('--title', '撤回我', '--content', '<p>oops</p>');
    expect(await listed()).toContain(id);
    const before = await rows();
    expect(await ops(t(), ['announcements', 'withdraw', '99999999'])).toMatchObject({ code: 1, err: 'no announcement 99999999\n' });
    expect(await ops(t(), ['announcements', 'withdraw', 'abc'])).toMatchObject({ code: 2, err: expect.stringContaining('<id>: the announcement id must be a whole number') });
    expect(await rows()).toEqual(before);

    expect(await ops(t(), ['announcements', 'withdraw', String(id)])).toMatchObject({ code: 0, out: `announcement ${id} withdrawn\n` });
    expect(await listed()).not.toContain(id);
    expect(await t().call(announcementInfo, { token, query: { id } })).toMatchObject({ code: CODE.notFound });
    expect(await rows()).toEqual(before.filter((r) => r.id !== id));
    expect(await ops(t(), ['announcements', 'withdraw', String(id)])).toMatchObject({ code: 1 });
  });
});
