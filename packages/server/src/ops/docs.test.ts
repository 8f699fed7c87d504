import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentInfo, documentMenu, type DocumentNode } from '@hublink/contract';
import { expect, it } from 'vitest';
import { loadConfig } from '../config';
import { describeEachDatabase, type TestApp } from '../../test/helpers';
import { pngImage } from '../../test/images';
import { ops } from '../../test/ops';

/** A handbook folder of these files (path → text or bytes) in a new temporary folder. */
function handbook(files: Record<string, string | Buffer>, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-ops-docs-'))): string {
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

const SMALL = {
  'index.md': ['- 快速入门', '  - [注册账号](start/register.md)', '  - [登录控制台](start/sign-in.md)', ''].join('\n'),
  'start/register.md': '# 注册账号\n\n打开注册页面，填写**用户名**。\n\n![注册页面](shot.png)\n',
  'start/sign-in.md': '使用用户名登录。\n',
  'start/shot.png': pngImage(4, 4, [[24, 144, 255]]),
};

const flat = (nodes: DocumentNode[]): DocumentNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const titles = async (t: TestApp) => flat((await t.call(documentMenu)).data!).map((n) => n.title);
const tables = async (t: TestApp) => ({
  nodes: await t.db.selectFrom('document_node').selectAll().orderBy('id').execute(),
  pages: await t.db.selectFrom('document_page').selectAll().orderBy('node_id').execute(),
});

describeEachDatabase('hublink ops docs import', (t) => {
  it('imports a handbook folder: the menu and documents show it', async () => {
    const dir = handbook(SMALL);
    const run = await ops(t(), ['docs', 'import', dir, '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ ok: true, message: `imported 1 section, 2 documents and 1 image from ${dir}`, dir, sections: 1, documents: 2, images: 1 });
    expect(await titles(t())).toEqual(['快速入门', '注册账号', '登录控制台']);
    const id = flat((await t().call(documentMenu)).data!).find((n) => n.title === '注册账号')!.id;
    const doc = (await t().call(documentInfo, { query: { id } })).data!;
    expect(doc.content).toContain('<strong>用户名</strong>');
    expect(doc.content).toMatch(/src="\/api\/v1\/document\/image\?name=[0-9a-f]{32}\.png"/);
  });

  it('imports the repository’s docs/handbook when no folder is given or configured', async () => {
    const run = await ops(t(), ['docs', 'import', '--json']);
    expect(run.code).toBe(0);
    const summary = run.json<{ dir: string; documents: number }>();
    expect(summary.dir).toBe(loadConfig({}).handbookDir);
    expect(summary.dir).toBe(path.resolve(import.meta.dirname, '../../../../docs/handbook'));
    expect(summary.documents).toBeGreaterThan(0);
    expect((await t().call(documentMenu)).data!.length).toBeGreaterThan(0);
  });

  it('refuses a broken handbook (exit 1) changing nothing, and bad arguments (exit 2)', async () => {
    await ops(t(), ['docs', 'import', handbook(SMALL)]);
    const before = await tables(t());
    const broken = handbook({ 'index.md': '- [缺失的文档](missing.md)\n' });
    const run = await ops(t(), ['docs', 'import', broken]);
    expect({ code: run.code, out: run.out }).toEqual({ code: 1, out: '' });
    expect(run.err).toContain(`${broken}: `);
    expect(run.err).toContain('missing.md does not exist');
    const empty = await ops(t(), ['docs', 'import', path.join(broken, 'nowhere')]);
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('index.md does not exist');
    expect(await tables(t())).toEqual(before);

    const extra = await ops(t(), ['docs', 'import', broken, 'other']);
    expect({ code: extra.code, err: extra.err.split('\n')[0] }).toEqual({ code: 2, err: "unexpected argument 'other'" });
    expect(await tables(t())).toEqual(before);
  });
});

const configured = handbook(SMALL);

describeEachDatabase(
  'hublink ops docs import: the configured handbook',
  (t) => {
    it('imports HUBLINK_HANDBOOK_DIR when no folder is given', async () => {
      handbook(SMALL, configured);
      expect((await ops(t(), ['docs', 'import'])).code).toBe(0);
      expect(await titles(t())).toEqual(['快速入门', '注册账号', '登录控制台']);
      // The operator edits the handbook and imports it again.
      handbook({ 'index.md': '- 快速入门\n  - [注册账号](start/register.md)\n- [常见问题](faq.md)\n', 'faq.md': '问答\n' }, configured);
      const run = await ops(t(), ['docs', 'import']);
      expect({ code: run.code, out: run.out }).toEqual({ code: 0, out: `imported 1 section, 2 documents and 1 image from ${configured}\n` });
      expect(await titles(t())).toEqual(['快速入门', '注册账号', '常见问题']);
    });
  },
  { config: { handbookDir: configured } },
);
