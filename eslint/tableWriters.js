import path from 'node:path';

/*
 * An ESLint rule for who writes which table: a Kysely write (`insertInto`, `updateTable`,
 * `deleteFrom`, `replaceInto`, `mergeInto`) or a raw `sql` insert, update or delete of a table is
 * allowed only in the table's owning area and the writers packages/server/src/db/owners.ts names for
 * it. The table must be named literally, so the rule can judge every write.
 *
 * Options: { root, owners }: `root` is packages/server/src (absolute); `owners` maps each table to
 * { owner, writers } whose paths are folders or files under root.
 */

const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);

/** insert into x, update x set, delete from x (quoted or not) in a raw statement's text. */
const RAW_WRITE = /\b(?:insert\s+into|delete\s+from|update)\s+"?([a-z_][a-z0-9_]*)"?(?=\s|\(|$)/gi;

/** A writer is a folder (everything under it) or one file. */
const inside = (file, area) => file === area || (!area.endsWith('.ts') && file.startsWith(`${area}/`));

/** Words after `update` that name no table: an upsert's `do update set`, a row lock's `for update skip locked | nowait | of t`. */
const NOT_A_TABLE = new Set(['set', 'skip', 'nowait', 'of']);

/** The tables a raw statement writes. */
function rawWrites(text) {
  const out = [];
  for (const m of text.matchAll(RAW_WRITE)) {
    const name = m[1].toLowerCase();
    if (NOT_A_TABLE.has(name)) continue;
    out.push(name);
  }
  return out;
}

/** @type {import('eslint').Rule.RuleModule} */
export const tableWriters = {
  meta: {
    type: 'problem',
    docs: { description: 'a table is written only by its owner and the writers db/owners.ts names' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, owners: { type: 'object' } },
        required: ['root', 'owners'],
        additionalProperties: false,
      },
    ],
    messages: {
      foreign: '{{area}} writes {{table}}, which belongs to {{owner}}: call a function {{owner}} exports, or name this writer with its reason in db/owners.ts',
      unknown: 'table {{table}} has no entry in db/owners.ts',
      dynamic: 'a write names its table at run time: name it literally, so its owner can be checked',
    },
  },
  create(context) {
    const { root, owners } = context.options[0];
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    if (file.startsWith('..')) return {};

    const judge = (node, table) => {
      const entry = owners[table];
      if (!entry) {
        context.report({ node, messageId: 'unknown', data: { table } });
        return;
      }
      const allowed = [entry.owner, ...Object.keys(entry.writers ?? {})];
      if (!allowed.some((a) => inside(file, a))) context.report({ node, messageId: 'foreign', data: { area: file, table, owner: entry.owner } });
    };

    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !WRITES.has(callee.property.name)) return;
        const arg = node.arguments[0];
        if (arg?.type === 'Literal' && typeof arg.value === 'string') judge(node, arg.value.split(/\s+as\s+/i)[0].trim());
        else context.report({ node, messageId: 'dynamic' });
      },
      TaggedTemplateExpression(node) {
        const tag = node.tag;
        const name = tag.type === 'Identifier' ? tag.name : tag.type === 'MemberExpression' && tag.object.type === 'Identifier' ? tag.object.name : '';
        if (name !== 'sql') return;
        const text = node.quasi.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' ');
        for (const table of rawWrites(text)) judge(node, table);
      },
    };
  },
};
