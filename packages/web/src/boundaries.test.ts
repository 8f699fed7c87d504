// @vitest-environment node
import { ESLint } from 'eslint';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
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
const ROUTER_DETAIL_FILE = 'packages/web/src/features/router/detail/Fixture.tsx';
const COMPONENT_FILE = 'packages/web/src/components/Fixture.tsx';
const COMPONENT_DEEP_FILE = 'packages/web/src/components/device/Fixture.tsx';
const SESSION_FILE = 'packages/web/src/session/Fixture.ts';
const API_FILE = 'packages/web/src/api/Fixture.ts';

/** Asserts that every source is refused at `filePath`, each time with a message containing `message`. */
async function refused(sources: string[], filePath: string, message: string) {
  for (const source of sources) {
    const errors = await importErrors(`${source}\n`, filePath);
    expect(errors.length, source).toBeGreaterThan(0);
    for (const error of errors) expect(error, source).toContain(message);
  }
}

describe('web boundaries (eslint.config.js): a feature imports only components, api, session, the test helpers and itself', () => {
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
      for (const error of errors) expect(error).toContain('features/router may import only components, api, session, the test helpers and itself');
    }
  });

  it('fails on a feature importing app/ (the floor above it), static or dynamic, from any folder of the feature', async () => {
    const message = 'features/router may import only components, api, session, the test helpers and itself';
    await refused(
      [
        "import { useUser } from '../../app/user';",
        "import { ROUTES } from '../../app/routes';",
        "export { renderApp } from '../../app/testing';",
        "const routes = () => import('../../app/routes');",
      ],
      ROUTER_FILE,
      message,
    );
    await refused(["import { leaveStalePage } from '../../../app/leaveStalePage';", "const routes = () => import('../../../app/routes');"], ROUTER_DETAIL_FILE, message);
  });

  it('fails on a feature importing a source folder outside components, api, session and test', async () => {
    expect(await importErrors("import '../../main';\n", ROUTER_FILE)).toHaveLength(1);
  });

  it('lets a feature import components, api, session, the test helpers, itself and packages', async () => {
    const source = [
      "import { M } from '@hublink/contract';",
      "import { Button } from 'antd';",
      "import { call } from '../../api/client';",
      "import { PageContainer } from '../../components/PageContainer';",
      "import { LOGIN_PATH } from '../../session/paths';",
      "import { renderWithProviders } from '../../test/render';",
      "import { memberColumns } from './columns';",
      "import { shortNote } from '../../features/router/format';",
      'export { M, Button, call, PageContainer, LOGIN_PATH, renderWithProviders, memberColumns, shortNote };',
    ].join('\n');
    expect(await importErrors(`${source}\n`, ROUTER_FILE)).toEqual([]);
  });

  it('leaves app free to import every feature and floor (the route table does)', async () => {
    expect(await importErrors("const page = () => import('../features/router/RouterListPage');\nexport { page };\n", 'packages/web/src/app/Fixture.tsx')).toEqual([]);
    expect(await importErrors("export { useUser } from '../session/user';\nexport { PageContainer } from '../components/PageContainer';\n", 'packages/web/src/app/Fixture.tsx')).toEqual([]);
  });
});

describe('web boundaries: the floors below the features never import upward', () => {
  it('fails on a component importing app/ or a feature, static or dynamic, from any folder of components', async () => {
    const message = 'components/ may import only api, session, the test helpers and itself, never app/ or features/';
    await refused(
      [
        "import { ROUTES } from '../app/routes';",
        "import { usePhone } from '../app/layouts/usePhone';",
        "import { sessionWording } from '../features/router/detail/memberWording';",
        "const routes = () => import('../app/routes');",
        "import '../main';",
      ],
      COMPONENT_FILE,
      message,
    );
    await refused(["import { renderApp } from '../../app/testing';", "const page = () => import('../../features/router/RouterListPage');"], COMPONENT_DEEP_FILE, message);
  });

  it('lets a component import api, session, the test helpers, other components and packages', async () => {
    const source = [
      "import { Button } from 'antd';",
      "import { useApiQuery } from '../api/hooks';",
      "import { useUser } from '../session/user';",
      "import { renderWithProviders } from '../test/render';",
      "import { usePhone } from './usePhone';",
      'export { Button, useApiQuery, useUser, renderWithProviders, usePhone };',
    ].join('\n');
    expect(await importErrors(`${source}\n`, COMPONENT_FILE)).toEqual([]);
    expect(await importErrors("export { FRAME } from '../dimensions';\nexport { call } from '../../api/client';\n", COMPONENT_DEEP_FILE)).toEqual([]);
  });

  it('fails on session/ importing app, features, components or (outside its tests) the test helpers', async () => {
    const message = 'session/ may import only api and itself';
    await refused(
      [
        "import { ROUTES } from '../app/routes';",
        "import { useNetworkRights } from '../features/network/permissions';",
        "import { PageContainer } from '../components/PageContainer';",
        "import { mainUser } from '../test/sessionFixtures';",
        "const routes = () => import('../app/routes');",
      ],
      SESSION_FILE,
      message,
    );
    await refused(["import { ROUTES } from '../app/routes';"], 'packages/web/src/session/Fixture.test.ts', message);
    expect(await importErrors("export { call } from '../api/client';\nexport { LOGIN_PATH } from './paths';\n", SESSION_FILE)).toEqual([]);
    expect(await importErrors("export { mainUser } from '../test/sessionFixtures';\n", 'packages/web/src/session/Fixture.test.ts')).toEqual([]);
  });

  it('fails on api/ importing any floor above it', async () => {
    await refused(["import { useUser } from '../session/user';", "import { ROUTES } from '../app/routes';"], API_FILE, 'api/ may import only itself');
  });
});

const WEB_SRC = fileURLToPath(new URL('./', import.meta.url));
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]*)['"]/g;
const RESOLVED = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** Every .ts and .tsx file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The web sources each source imports by a relative path (static, re-exported or dynamic, types included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(WEB_SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap((m) => {
      const base = path.resolve(path.dirname(file), m[1]!);
      const hit = RESOLVED.map((ext) => base + ext).find((p) => /\.tsx?$/.test(p) && existsSync(p) && statSync(p).isFile());
      return hit ? [hit] : [];
    });
    graph.set(file, targets);
  }
  return graph;
}

/** The import circles a depth-first walk meets (none means none exist). */
function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string) => {
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) found.push([...trail.slice(at), next].map((f) => path.relative(WEB_SRC, f)).join(' → '));
      else if (!done.has(next)) visit(next);
    }
    trail.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

describe('web import graph', () => {
  it('has no import circle among the web sources (lazy pages included)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph)).toEqual([]);
  });

  it('finds a planted circle (the check can fail)', () => {
    const graph = new Map([
      ['/src/app/routes.tsx', ['/src/features/x/Page.tsx']],
      ['/src/features/x/Page.tsx', ['/src/app/leaveStalePage.ts']],
      ['/src/app/leaveStalePage.ts', ['/src/app/routes.tsx']],
    ]);
    expect(circles(graph)).toHaveLength(1);
  });
});
