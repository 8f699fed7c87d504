import path from 'node:path';

/*
 * An ESLint rule for the house's import boundaries: a file under `areas/<X>/` may import only its
 * own <X>, the `allow` directories and, in test files, the `allowInTests` directories too; of the
 * workspace's packages (`scope`), only `packages`. npm packages and node: modules pass.
 *
 * A relative import is judged by the path it resolves to, not by its spelling: '../network/quota'
 * from modules/router and '../../network/quota' from modules/router/sub are the same breach, and
 * '../../core' is allowed from either. (no-restricted-imports only sees the text of the specifier,
 * so each depth of folder would need its own patterns.) `export … from` and `import()` count too.
 *
 * Options (paths absolute): { root, areas, allow, tests, allowInTests, scope, packages, packagesInTests }; `root`
 * only names directories in the message; `tests` is a regular expression over the file's path.
 */

const inside = (target, dir) => target === dir || target.startsWith(dir + path.sep);

/** @type {import('eslint').Rule.RuleModule} */
export const areaImports = {
  meta: {
    type: 'problem',
    docs: { description: 'an area (modules/X, features/X) imports only the allowed directories and itself' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          areas: { type: 'string' },
          allow: { type: 'array', items: { type: 'string' } },
          tests: { type: 'string' },
          allowInTests: { type: 'array', items: { type: 'string' } },
          scope: { type: 'string' },
          packages: { type: 'array', items: { type: 'string' } },
          packagesInTests: { type: 'array', items: { type: 'string' } },
        },
        required: ['root', 'areas', 'allow'],
        additionalProperties: false,
      },
    ],
    messages: {
      outside: "{{area}} may import only itself, {{allowed}}; '{{source}}' is none of them.",
    },
  },

  create(context) {
    const o = context.options[0];
    const file = context.filename;
    const fromAreas = path.relative(o.areas, file);
    if (fromAreas.startsWith('..') || path.isAbsolute(fromAreas) || !fromAreas.includes(path.sep)) return {};

    const own = path.join(o.areas, fromAreas.split(path.sep)[0]);
    const isTest = o.tests !== undefined && new RegExp(o.tests).test(file);
    const dirs = [own, ...o.allow, ...(isTest ? (o.allowInTests ?? []) : [])];
    const packages = [...(o.packages ?? []), ...(isTest ? (o.packagesInTests ?? []) : [])];
    const named = (dir) => path.relative(o.root, dir) || '.';
    const others = [...dirs.slice(1).map(named), ...packages];
    const allowed = others.length > 1 ? `${others.slice(0, -1).join(', ')} and ${others.at(-1)}` : others.join('');

    const isAllowed = (source) => {
      if (source.startsWith('.')) return dirs.some((d) => inside(path.resolve(path.dirname(file), source), d));
      if (!o.scope || !source.startsWith(o.scope)) return true;
      return packages.some((p) => source === p || source.startsWith(`${p}/`));
    };

    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string' || isAllowed(node.value)) return;
      context.report({ node, messageId: 'outside', data: { area: named(own), allowed, source: node.value } });
    };

    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
    };
  },
};
