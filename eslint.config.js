import path from 'node:path';
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { tsImport } from 'tsx/esm/api';
import { areaImports } from './eslint/areaImports.js';
import { tableWriters } from './eslint/tableWriters.js';

/** One plugin object for every server area block (ESLint refuses two different objects under one name). */
const serverAreas = { rules: { imports: areaImports } };

const server = (dir) => path.join(import.meta.dirname, 'packages/server', dir);

/**
 * One server floor's import rule (eslint/areaImports.js): files under src/<files> import their own area,
 * src/<allow> and @hublink/contract; their tests also `allowInTests` (paths under packages/server).
 */
const serverFloor = ({ files, areas = server('src'), allow, tests = '\\.test\\.ts$', allowInTests = ['test'], packagesInTests = [] }) => ({
  files: [files].flat().map((dir) => `packages/server/src/${dir}/**/*.ts`),
  plugins: { 'server-modules': serverAreas },
  rules: {
    'server-modules/imports': [
      'error',
      {
        root: server('src'),
        areas,
        allow: allow.map((dir) => server(`src/${dir}`)),
        tests,
        allowInTests: allowInTests.map(server),
        scope: '@hublink/',
        packages: ['@hublink/contract'],
        packagesInTests,
      },
    ],
  },
});

/** Who owns which table (packages/server/src/db/owners.ts), for the rule on writes. */
const { OWNERS } = await tsImport('./packages/server/src/db/owners.ts', import.meta.url);

/**
 * Web floors, from the bottom: api/ (the client, the hooks of calls), session/ (what every screen may know
 * of the signed-in session: the user, the brand, the paths, who may visit what, the tab's history),
 * components/ (shared pieces), features/X (the pages of one area), app/ (the route table, guards,
 * layouts, providers). A floor imports only the floors below it and itself; test/ (the helpers of tests,
 * which render pages in the real shell) may be imported by every floor's tests.
 */
const WEB_FEATURES = readdirSync(new URL('./packages/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// esquery regexes cannot hold a slash, hence \x2F.
/** A dynamic import('…') going up into one of `folders` (a `|` list of src folders), from any depth. */
const dynamicImportInto = (folders) => `ImportExpression[source.value=/^(\\.\\.\\x2F)+(${folders})(\\x2F|$)/]`;
/** A relative path that leaves the file's floor (`ups` steps up) for anything but `allow` (a `|` list). */
const outOf = (ups, allow, message) => ({ regex: `^(\\.\\./){${ups}}(?!(${allow})(/|$))`, message });

/** features/X imports components, api, session, the test helpers and X itself; never another feature, never app. */
const webFeatureBoundaries = WEB_FEATURES.map((feature) => {
  const others = WEB_FEATURES.filter((f) => f !== feature).join('|');
  const message = `features/${feature} may import only components, api, session, the test helpers and itself; move what two features share to components/, session/ or api/, and never import app/.`;
  // Out of the feature: '../../X' from its top folder, '../../../X' from a subfolder (features/router/detail).
  const outOfFeature = (ups) => ({ regex: `^(\\.\\./){${ups}}(?!(api|components|session|test)(/|$)|features/${feature}(/|$))`, message });
  const rules = (ups) => ({
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.value=/^(\\.\\.\\x2F)+(features\\x2F)?(${others})(\\x2F|$)/]`, message },
      { selector: dynamicImportInto('app'), message },
    ],
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: `^(\\.\\./)+(features/)?(${others})(/|$)`, message },
          { regex: `(^|/)features/(${others})(/|$)`, message },
          { regex: '^(\\.\\./)+app(/|$)', message },
          outOfFeature(ups),
        ],
      },
    ],
  });
  return [
    { files: [`packages/web/src/features/${feature}/*.{ts,tsx}`], rules: rules(2) },
    { files: [`packages/web/src/features/${feature}/*/**/*.{ts,tsx}`], rules: rules(3) },
  ];
}).flat();

/**
 * A floor below the features (`dir` of packages/web/src): its files import only `allow` (a `|` list of
 * src folders) and the floor itself; a path going up into `above` (a `|` list) is refused from any depth.
 */
const webLowerFloor = ({ dir, files = '{ts,tsx}', allow, above, message }) => {
  const rules = (ups) => ({
    'no-restricted-syntax': ['error', { selector: dynamicImportInto(above), message }],
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: `^(\\.\\./)+(${above})(/|$)`, message }, outOf(ups, allow, message)] },
    ],
  });
  return [
    { files: [`packages/web/src/${dir}/*.${files}`], rules: rules(1) },
    { files: [`packages/web/src/${dir}/*/**/*.${files}`], rules: rules(2) },
  ];
};

const SESSION_MESSAGE = 'session/ may import only api and itself (its tests also the test helpers), never components/, features/ or app/.';
const webLowerFloors = [
  // Components know nothing of the app: no route table, no layout, no feature.
  ...webLowerFloor({
    dir: 'components',
    allow: 'api|session|test',
    above: 'app|features',
    message: 'components/ may import only api, session, the test helpers and itself, never app/ or features/: give a component what it needs of them as props or context.',
  }),
  // The session sits under components and features: the user, brand, paths and access they all read.
  ...webLowerFloor({ dir: 'session', allow: 'api', above: 'app|features|components|test', message: SESSION_MESSAGE }),
  ...webLowerFloor({ dir: 'session', files: 'test.{ts,tsx}', allow: 'api|test', above: 'app|features|components', message: SESSION_MESSAGE }),
  // The client and the hooks of calls are the ground floor.
  ...webLowerFloor({
    dir: 'api',
    allow: 'test',
    above: 'session|components|features|app',
    message: 'api/ may import only itself (its tests also the test helpers), never session/, components/, features/ or app/.',
  }),
];

/** Chinese (CJK ideographs, CJK punctuation, full-width forms). */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;

/**
 * Every text the console shows comes from the contract's messages (M), so a locale can be added
 * without touching pages: a string, template or JSX text in Chinese is an error in web and server sources.
 */
const noChineseText = {
  meta: { type: 'problem', schema: [], messages: { text: 'Chinese text belongs in the contract\'s messages (M of @hublink/contract): "{{text}}"' } },
  create(context) {
    const check = (node, text) => {
      if (CJK.test(text)) context.report({ node, messageId: 'text', data: { text: text.trim().slice(0, 24) } });
    };
    return {
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      TemplateLiteral: (node) => check(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('')),
      JSXText: (node) => check(node, node.value),
    };
  },
};

/** Test files and the fixtures only tests use may write what the user sees literally. */
const WEB_TEST_FILES = [
  'packages/web/src/**/*.test.{ts,tsx}',
  'packages/web/src/test/**',
  'packages/web/src/app/testing.tsx',
  'packages/web/src/features/router/testData.ts',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Server modules: modules/X imports core, domain, db, @hublink/contract and itself (its tests and
  // fixtures also packages/server/test), so one module reaches another only through domain or events.
  serverFloor({ files: 'modules', areas: server('src/modules'), allow: ['core', 'domain', 'db'], tests: '(\\.test\\.ts|[\\\\/]fixtures\\.ts)$' }),
  // The network compiler (compiler/) is one area: core, domain, db, @hublink/contract and itself (its
  // tests also packages/server/test), never a module; what it needs of one comes through events.
  serverFloor({ files: 'compiler', allow: ['core', 'domain', 'db'] }),
  // The floors under the areas: core/ is machinery (http, events, jobs, pub/sub, storage, metrics,
  // audit capture, sign-in) and knows no spec area: it imports only itself, db, config.ts (the settings'
  // type and loader) and @hublink/contract. domain/ holds the area logic several areas share (members,
  // accounts, plan, member states, the directory, device credentials…): the same, never an area above.
  serverFloor({ files: ['core', 'domain'], allow: ['core', 'db', 'config'], allowInTests: ['test', 'src/domain', 'src/modules', 'src/app'] }),
  // The device gateway (gateway/): core, domain, db, the compiler's certificates and models,
  // @hublink/contract and itself; never a module (what it needs of one comes through domain or events).
  // Its tests may use the modules' fixtures and packages/server/test, and start the reference agent.
  serverFloor({ files: 'gateway', allow: ['core', 'domain', 'db', 'compiler'], allowInTests: ['test', 'src/modules'], packagesInTests: ['@hublink/agent'] }),
  // The MCP endpoint (mcp/) calls the REST API in process: core and @hublink/contract only, never a module,
  // so what an assistant may do is exactly what the API lets the token do. Its tests and fixtures also packages/server/test.
  serverFloor({ files: 'mcp', allow: ['core'], tests: '(\\.test\\.ts|[\\\\/]fixtures\\.ts)$' }),
  // A table is written only by its owner and the writers db/owners.ts names (tests, fixtures and the
  // migrations set up what they need directly).
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/**/*.test.ts', 'packages/server/src/**/fixtures.ts', 'packages/server/src/db/migrations/**', 'packages/server/src/db/migrate.ts'],
    plugins: { 'server-tables': { rules: { writers: tableWriters } } },
    rules: { 'server-tables/writers': ['error', { root: server('src'), owners: OWNERS }] },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: WEB_TEST_FILES,
    plugins: { 'hublink-web': { rules: { 'no-chinese-text': noChineseText } } },
    rules: { 'hublink-web/no-chinese-text': 'error' },
  },
  ...webFeatureBoundaries,
  ...webLowerFloors,
  // The server's answers and mails come from M too. Brand names and filing numbers in config.ts are
  // deployment settings (HUBLINK_BRANDS), not texts of the console.
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/**/*.test.ts', 'packages/server/src/**/fixtures.ts', 'packages/server/src/config.ts'],
    plugins: { 'hublink-server': { rules: { 'no-chinese-text': noChineseText } } },
    rules: { 'hublink-server/no-chinese-text': 'error' },
  },
);
