// @vitest-environment node
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

const IMPORT_RULES = ['no-restricted-imports', 'no-restricted-syntax'];

/** The import rule messages ESLint gives a source placed at `filePath` (relative to the repository). */
async function importErrors(source: string, filePath: string) {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => IMPORT_RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

const ROUTER_FILE = 'packages/web/src/features/router/Fixture.tsx';

describe('web boundaries (eslint.config.js): a feature imports only components, api, app and itself', () => {
  it('fails on a feature importing another feature, however the path is written', async () => {
    for (const source of [
      "import { useRamMutation } from '../ram/api';",
      "import { CodeInput } from '../account/fields';",
      "import LoginPage from '../../features/auth/LoginPage';",
      "export { AnnouncementTicker } from '../dashboard/AnnouncementTicker';",
      "const page = () => import('../network/NetworkListPage');",
    ]) {
      const errors = await importErrors(`${source}\n`, ROUTER_FILE);
      expect(errors.length, source).toBeGreaterThan(0);
      for (const error of errors) expect(error).toContain('features/router may import only components, api, app and itself');
    }
  });

  it('fails on a feature importing a source folder outside components, api and app', async () => {
    expect(await importErrors("import '../../main';\n", ROUTER_FILE)).toHaveLength(1);
  });

  it('lets a feature import components, api, app, the test helpers, itself and packages', async () => {
    const source = [
      "import { M } from '@hublink/contract';",
      "import { Button } from 'antd';",
      "import { call } from '../../api/client';",
      "import { PageContainer } from '../../components/PageContainer';",
      "import { LOGIN_PATH } from '../../app/paths';",
      "import { renderWithProviders } from '../../test/render';",
      "import { memberColumns } from './columns';",
      "import { shortNote } from '../../features/router/format';",
      'export { M, Button, call, PageContainer, LOGIN_PATH, renderWithProviders, memberColumns, shortNote };',
    ].join('\n');
    expect(await importErrors(`${source}\n`, ROUTER_FILE)).toEqual([]);
  });

  it('leaves app free to import every feature (the route table does)', async () => {
    expect(await importErrors("const page = () => import('../features/router/RouterListPage');\nexport { page };\n", 'packages/web/src/app/Fixture.tsx')).toEqual([]);
  });
});
