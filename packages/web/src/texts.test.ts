// @vitest-environment node
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

/** How many Chinese texts ESLint finds in a source placed at `filePath` (relative to the repository). */
async function chineseTexts(source: string, filePath: string) {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'hublink-web/no-chinese-text').length;
}

describe('web texts (eslint.config.js): every text the console shows comes from the contract’s messages', () => {
  it('fails on Chinese in a string, a template, JSX text or an attribute of a web source', async () => {
    const page = [
      "import { M } from '@hublink/contract';",
      "export const title = '网络列表';",
      'export const total = (n: number) => `共 ${n} 条`;',
      'export const Save = () => <button aria-label="保存">保存</button>;',
      'export const Done = () => <p>{M.done}</p>;',
    ].join('\n');
    expect(await chineseTexts(`${page}\n`, 'packages/web/src/features/network/Fixture.tsx')).toBe(4);
    expect(await chineseTexts("export const label = '搜索';\n", 'packages/web/src/components/Fixture.ts')).toBe(1);
  });

  it('lets comments, test files and test fixtures say what the user sees', async () => {
    expect(await chineseTexts("// 网络列表\nexport const title = 'VPN';\n", 'packages/web/src/features/network/Fixture.tsx')).toBe(0);
    expect(await chineseTexts("export const expected = '网络列表';\n", 'packages/web/src/features/network/Fixture.test.tsx')).toBe(0);
    expect(await chineseTexts("export const nickname = '小林';\n", 'packages/web/src/test/fixture.ts')).toBe(0);
  });
});
