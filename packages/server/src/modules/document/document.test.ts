import path from 'node:path';
import { CODE, DOCUMENT_TYPE, documentImage, documentInfo, documentMenu, handbookHref, M, type DocumentNode } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { PNG, SMALL_HANDBOOK, writeHandbook } from './fixtures';

/** The handbook the repository ships (docs/handbook), which a real server imports on its first start. */
const REPOSITORY_HANDBOOK = path.resolve(import.meta.dirname, '../../../../../docs/handbook');

const byTitle = (nodes: DocumentNode[], title: string): DocumentNode => {
  for (const n of nodes) {
    if (n.title === title) return n;
    const found = n.children.length ? byTitleOrNull(n.children, title) : null;
    if (found) return found;
  }
  throw new Error(`no node ${title}`);
};
const byTitleOrNull = (nodes: DocumentNode[], title: string): DocumentNode | null => {
  try {
    return byTitle(nodes, title);
  } catch {
    return null;
  }
};

describeEachDatabase(
  'GET /document/menu and /document/info (public)',
  (t) => {
    let menu: DocumentNode[] = [];
    let ids: Record<string, number> = {};

    beforeAll(async () => {
      // The app imported the handbook on start: the database was empty.
      const res = await t().call(documentMenu);
      menu = res.data!;
      ids = Object.fromEntries(['快速入门', '注册账号', '登录控制台', '成员管理', '批量导入'].map((title) => [title, byTitle(menu, title).id]));
    });

    it('answers the menu as a tree in order, without a token, for a minute of caching', async () => {
      expect(menu).toEqual([
        {
          id: ids['快速入门'],
          fid: 0,
          title: '快速入门',
          type: DOCUMENT_TYPE.section,
          children: [
            { id: ids['注册账号'], fid: ids['快速入门'], title: '注册账号', type: DOCUMENT_TYPE.document, children: [] },
            { id: ids['登录控制台'], fid: ids['快速入门'], title: '登录控制台', type: DOCUMENT_TYPE.document, children: [] },
          ],
        },
        {
          id: ids['成员管理'],
          fid: 0,
          title: '成员管理',
          type: DOCUMENT_TYPE.section,
          children: [{ id: ids['批量导入'], fid: ids['成员管理'], title: '批量导入', type: DOCUMENT_TYPE.document, children: [] }],
        },
      ]);
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/document/menu' });
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      // Where documents lie in the folder is the import's business only.
      expect(res.body).not.toMatch(/\.md|doc:|section:/);
    });

    it('answers a document rendered from Markdown, with its neighbours in menu order', async () => {
      const first = await t().call(documentInfo, { query: { id: ids['注册账号']! } });
      expect(first).toMatchObject({ code: CODE.ok, status: 200 });
      expect(first.data!.title).toBe('注册账号');
      expect(first.data!.before_doc).toBeNull();
      expect(first.data!.after_doc).toEqual({ id: ids['登录控制台'], title: '登录控制台' });
      // The heading that repeats the title is dropped; the page shows the title.
      expect(first.data!.content).not.toContain('<h1>');
      expect(first.data!.content).toContain('<p>打开注册页面，填写<strong>用户名</strong>。</p>');

      const middle = await t().call(documentInfo, { query: { id: ids['登录控制台']! } });
      expect(middle.data!.before_doc).toEqual({ id: ids['注册账号'], title: '注册账号' });
      // Previous/next cross sections: the menu is one sequence of documents.
      expect(middle.data!.after_doc).toEqual({ id: ids['批量导入'], title: '批量导入' });
      expect(middle.data!.content).toContain('<table>');
      expect(middle.data!.content).toContain('<td>用户名、手机或邮箱</td>');

      const last = await t().call(documentInfo, { query: { id: ids['批量导入']! } });
      expect(last.data!.after_doc).toBeNull();
      expect(last.data!.content).toContain('<pre><code>echo ok\n</code></pre>');
    });

    it('points links between documents at the console and images at the server', async () => {
      const register = (await t().call(documentInfo, { query: { id: ids['注册账号']! } })).data!.content;
      const href = handbookHref(ids['登录控制台']!, '登录控制台').replace(/&/g, '&amp;');
      expect(register).toContain(`<a href="${href}" target="_blank" rel="noopener noreferrer">登录控制台</a>`);
      const src = /<img src="([^"]+)" alt="注册页面" \/>/.exec(register)?.[1];
      expect(src).toMatch(/^\/api\/v1\/document\/image\?name=[0-9a-f]{32}\.png$/);
      // A link with a fragment goes to the document (headings carry no anchors).
      const imported = (await t().call(documentInfo, { query: { id: ids['批量导入']! } })).data!.content;
      expect(imported).toContain(`href="${handbookHref(ids['注册账号']!, '注册账号').replace(/&/g, '&amp;')}"`);

      const name = new URL(src!, 'http://x').searchParams.get('name')!;
      const image = await t().call(documentImage, { query: { name } });
      expect(image.file).toMatchObject({ contentType: 'image/png', body: PNG });
      const raw = await t().app.inject({ method: 'GET', url: src! });
      expect(raw.headers).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff', 'content-length': String(PNG.length) });
    });

    it('answers 204 for an unknown document, a section or an unknown image; 422 for a malformed id or name', async () => {
      for (const id of [999_999, ids['快速入门']!]) {
        expect(await t().call(documentInfo, { query: { id } })).toMatchObject({ code: CODE.notFound, msg: M.documentNotFound, status: 200 });
      }
      for (const id of ['abc', 0, -1, 2_147_483_648, '1.5']) {
        expect((await t().call(documentInfo, { query: { id } })).code, String(id)).toBe(CODE.invalid);
      }
      expect(await t().call(documentImage, { query: { name: `${'0'.repeat(32)}.png` } })).toMatchObject({ code: CODE.notFound, msg: M.documentImageNotFound });
      for (const name of ['../secret.key', 'x.png', `${'a'.repeat(32)}.svg`, `${'A'.repeat(32)}.png`]) {
        expect((await t().call(documentImage, { query: { name } })).code, name).toBe(CODE.invalid);
      }
    });

    it('answers a signed-in caller the same', async () => {
      const { token } = await newAccount(t());
      expect((await t().call(documentMenu, { token })).data).toEqual(menu);
      expect((await t().call(documentInfo, { token, query: { id: ids['注册账号']! } })).data!.title).toBe('注册账号');
    });
  },
  { config: { handbookDir: writeHandbook(SMALL_HANDBOOK) } },
);

describeEachDatabase(
  'help documents when the handbook cannot be imported on start',
  (t) => {
    it('starts with an empty menu', async () => {
      expect(await t().call(documentMenu)).toMatchObject({ code: CODE.ok, data: [] });
      expect(await t().call(documentInfo, { query: { id: 1 } })).toMatchObject({ code: CODE.notFound });
    });
  },
  { config: { handbookDir: writeHandbook({ 'index.md': '- [缺失](missing.md)\n' }) } },
);

describeEachDatabase('the handbook of the repository (docs/handbook), imported on start', (t) => {
  it('has the sections of the product, and every document renders with links and images that resolve', async () => {
    const menu = (await t().call(documentMenu)).data!;
    expect(menu.map((n) => n.title)).toEqual(['快速入门', '账号管理', '成员管理', '智能组网', 'POP 资源与网络工单', '目录同步与登录', '监控告警', '工单与日志', '客户端']);
    const all = (nodes: DocumentNode[]): DocumentNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
    const docs = all(menu).filter((n) => n.type === DOCUMENT_TYPE.document);
    expect(docs.length).toBeGreaterThan(30);
    const ids = new Set(docs.map((d) => d.id));
    const images = new Set<string>();
    for (const doc of docs) {
      const { data } = await t().call(documentInfo, { query: { id: doc.id } });
      expect(data!.title).toBe(doc.title);
      expect(data!.content.length, doc.title).toBeGreaterThan(200);
      for (const [, href] of data!.content.matchAll(/href="([^"]+)"/g)) {
        // Every link is a web address, a console page or another document of the menu.
        expect(href, doc.title).toMatch(/^(https?:|\/)/);
        if (href!.startsWith('/handbook?')) expect(ids.has(Number(new URLSearchParams(href!.slice('/handbook?'.length).replace(/&amp;/g, '&')).get('id'))), `${doc.title}: ${href}`).toBe(true);
      }
      for (const [, src] of data!.content.matchAll(/src="([^"]+)"/g)) images.add(src!);
    }
    expect(images.size).toBeGreaterThan(0);
    for (const src of images) expect((await t().app.inject({ method: 'GET', url: src })).headers['content-type'], src).toBe('image/png');
  });
}, { config: { handbookDir: REPOSITORY_HANDBOOK } });
