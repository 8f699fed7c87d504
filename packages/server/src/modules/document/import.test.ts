import fs from 'node:fs';
import path from 'node:path';
import { CODE, DOCUMENT_TYPE, documentInfo, documentMenu, LIMITS, type DocumentNode } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestApp } from '../../../test/helpers';
import { PNG, SMALL_HANDBOOK, writeHandbook } from './fixtures';
import { HandbookError, importDocuments } from './index';

const flat = (nodes: DocumentNode[]): DocumentNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const idsByTitle = async (t: TestApp) => Object.fromEntries(flat((await t.call(documentMenu)).data!).map((n) => [n.title, n.id]));
const tables = async (t: TestApp) => ({
  nodes: await t.db.selectFrom('document_node').selectAll().orderBy('id').execute(),
  pages: await t.db.selectFrom('document_page').selectAll().orderBy('node_id').execute(),
});
const contentOf = async (t: TestApp, id: number) => (await t.call(documentInfo, { query: { id } })).data!.content;

describeEachDatabase(
  'importDocuments: the handbook folder into the database',
  (t) => {
    it('keeps the ids of documents and sections whose path stays, across renames, moves and removals', async () => {
      const before = await idsByTitle(t());
      // 注册账号 moves to another section and is renamed; 登录控制台 leaves the menu; a new document and section come.
      const dir = writeHandbook({
        ...SMALL_HANDBOOK,
        'index.md': ['- 快速入门', '  - [新功能](start/new.md)', '- 成员管理', '  - [批量导入](members/import.md)', '  - [注册新账号](start/register.md)', '- 其他', '  - 更多', '    - [附录](appendix.md)', ''].join('\n'),
        'start/register.md': '注册后请阅读[新功能](new.md)。\n',
        'start/new.md': '新内容\n',
        'appendix.md': '附录\n',
      });
      expect(await importDocuments(t().ctx, dir)).toEqual({ sections: 4, documents: 4, images: 0 });
      const after = await idsByTitle(t());
      expect(after['快速入门']).toBe(before['快速入门']);
      expect(after['成员管理']).toBe(before['成员管理']);
      expect(after['批量导入']).toBe(before['批量导入']);
      expect(after['注册新账号']).toBe(before['注册账号']);
      expect(after['新功能']).not.toBe(before['登录控制台']);
      expect(await t().call(documentInfo, { query: { id: before['登录控制台']! } })).toMatchObject({ code: CODE.notFound });
      const menu = (await t().call(documentMenu)).data!;
      expect(menu.map((n) => n.title)).toEqual(['快速入门', '成员管理', '其他']);
      expect(menu[1]!.children.map((n) => [n.title, n.fid])).toEqual([
        ['批量导入', before['成员管理']],
        ['注册新账号', before['成员管理']],
      ]);
      expect(menu[2]!.children[0]).toMatchObject({ title: '更多', type: DOCUMENT_TYPE.section, children: [{ title: '附录', fid: after['更多'] }] });
      // The order of previous/next follows the new menu.
      const moved = await t().call(documentInfo, { query: { id: after['注册新账号']! } });
      expect(moved.data).toMatchObject({ before_doc: { id: after['批量导入'], title: '批量导入' }, after_doc: { id: after['附录'], title: '附录' } });
      expect(moved.data!.content).toContain(`id=${after['新功能']}&amp;title=`);

      // Back to the first handbook: the documents that were there keep their first ids.
      await importDocuments(t().ctx, writeHandbook(SMALL_HANDBOOK));
      const again = await idsByTitle(t());
      expect(again['注册账号']).toBe(before['注册账号']);
      expect(again['批量导入']).toBe(before['批量导入']);
      expect(again['登录控制台']).not.toBe(before['登录控制台']);
    });

    it('never lets a script, an event handler or a javascript: link through', async () => {
      const dir = writeHandbook({
        'index.md': '- [危险](evil.md)\n',
        'evil.md': [
          '正文<script>alert(1)</script>',
          '',
          '<img src="x" onerror="alert(2)">',
          '',
          '[点我](javascript:alert(3)) [再点](JaVaScRiPt:alert(4)) [数据](data:text/html;base64,PHNjcmlwdD4=)',
          '',
          '<iframe src="https://evil.example"></iframe><a href="https://ok.example" onclick="x()">外链</a>',
          '',
          '<style>body{display:none}</style><form action="/x"><input name="a"></form>',
          '',
          '<p style="color: red; background: url(javascript:alert(5))">样式</p>',
          '',
        ].join('\n'),
      });
      await importDocuments(t().ctx, dir);
      const id = (await idsByTitle(t()))['危险']!;
      const html = await contentOf(t(), id);
      expect(html).toContain('正文');
      expect(html).toContain('<a href="https://ok.example" target="_blank" rel="noopener noreferrer">外链</a>');
      for (const bad of [/<script/i, /onerror/i, /onclick/i, /javascript:/i, /data:text/i, /<iframe/i, /<style/i, /<form/i, /<input/i, /url\(/i, /alert/]) {
        expect(html).not.toMatch(bad);
      }
    });

    it('refuses a folder it cannot import, changing nothing', async () => {
      await importDocuments(t().ctx, writeHandbook(SMALL_HANDBOOK));
      const before = await tables(t());
      const base = { ...SMALL_HANDBOOK };
      const outside = writeHandbook({ 'secret.md': 'x\n' });
      const deep = ['- 一', '  - 二', '    - 三', '      - 四', '        - 五', '          - [深](a.md)', ''].join('\n');
      const cases: [string, Record<string, string | Buffer>, RegExp][] = [
        ['no index', { 'a.md': 'x' }, /index\.md does not exist/],
        ['no list', { 'index.md': '# 只有标题\n' }, /exactly one list/],
        ['two lists', { 'index.md': '- [a](a.md)\n\n文字\n\n- [b](b.md)\n', 'a.md': 'x', 'b.md': 'y' }, /exactly one list/],
        ['a missing document', { ...base, 'index.md': '- [缺失](missing.md)\n' }, /missing\.md does not exist/],
        ['a document outside the folder', { ...base, 'index.md': `- [外部](../${path.basename(outside)}/secret.md)\n` }, /outside the handbook folder/],
        ['a document listed twice', { ...base, 'index.md': '- [a](start/register.md)\n- [b](start/register.md)\n' }, /listed twice/],
        ['a link that is no document', { ...base, 'index.md': '- [网页](https://example.com)\n' }, /must link to a \.md file/],
        ['an empty section', { ...base, 'index.md': '- 空的\n- [a](start/sign-in.md)\n' }, /holds no entries/],
        ['two sections of one name', { ...base, 'index.md': '- 同名\n  - [a](start/sign-in.md)\n- 同名\n  - [b](members/import.md)\n' }, /two sections/],
        ['sections too deep', { ...base, 'index.md': deep, 'a.md': 'x' }, /deeper than 4/],
        ['a title too long', { ...base, 'index.md': `- [${'长'.repeat(LIMITS.documentTitleMax + 1)}](start/sign-in.md)\n` }, /title must be/],
        ['a link to a document not in the menu', { ...base, 'index.md': '- [a](start/register.md)\n' }, /not in the menu/],
        ['a link to a file that is no document', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': '[文件](images/register.png)\n' }, /not a document/],
        ['an image that is not what its name says', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': '![图](fake.png)\n', 'fake.png': 'GIF89a......' }, /does not hold a png image/],
        ['an image of another kind', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': '![图](logo.svg)\n', 'logo.svg': '<svg/>' }, /not a png, jpg, gif or webp/],
        ['an image from elsewhere', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': '![图](https://example.com/a.png)\n' }, /must be a file of the handbook folder/],
        ['an image too large', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': '![图](big.png)\n', 'big.png': Buffer.concat([PNG, Buffer.alloc(LIMITS.documentImageMaxBytes)]) }, /larger than/],
        ['a document too large', { ...base, 'index.md': '- [a](a.md)\n', 'a.md': 'x'.repeat(LIMITS.documentSourceMaxBytes + 1) }, /larger than/],
      ];
      for (const [what, files, message] of cases) {
        const error = await importDocuments(t().ctx, writeHandbook(files)).catch((e: unknown) => e);
        expect(error, what).toBeInstanceOf(HandbookError);
        expect((error as Error).message, what).toMatch(message);
      }
      expect(await tables(t())).toEqual(before);
    });

    it('refuses a symbolic link that leaves the folder', async () => {
      const outside = writeHandbook({ 'secret.md': '机密\n' });
      const dir = writeHandbook({ 'index.md': '- [链接](link.md)\n' });
      fs.symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'link.md'));
      await expect(importDocuments(t().ctx, dir)).rejects.toThrow(/outside the handbook folder/);
    });
  },
  { config: { handbookDir: writeHandbook(SMALL_HANDBOOK) } },
);
