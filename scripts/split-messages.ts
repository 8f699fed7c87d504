/**
 * Moves the files given from the one namespace M to the texts they use (issue 31; see
 * docs/performance.md, "Moving the pages from M to their areas"): a key of common, shell or auth becomes
 * BM.key, any other key <area>Messages.key, and the import of M becomes an import of BM and those area
 * objects (from '@hublink/contract' in the console, from './messages' in the contract). Run it where
 * nobody else edits the files, then typecheck and lint:
 *
 *   npx tsx scripts/split-messages.ts $(grep -rl 'M\.' packages/web/src --include=*.tsx)
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(import.meta.dirname, '../packages/contract/src/messages');
const BASE = new Set(['common', 'shell', 'auth']);
const areaOf = new Map<string, { file: string; name: string }>();
for (const f of fs.readdirSync(dir)) {
  if (!f.endsWith('.ts') || f.endsWith('.test.ts') || ['index.ts', 'base.ts', 'all.ts'].includes(f)) continue;
  const mod = await import(path.join(dir, f));
  for (const [name, obj] of Object.entries(mod)) if (obj && typeof obj === 'object') for (const k of Object.keys(obj as object)) areaOf.set(k, { file: f.replace(/\.ts$/, ''), name });
}

for (const file of process.argv.slice(2)) {
  let src = fs.readFileSync(file, 'utf8');
  const inContract = path.resolve(file).includes('/packages/contract/src/');
  const used = new Map<string, string>(); // object name -> area file
  src = src.replace(/(?<![\w.])M\.(\w+)/g, (_, key: string) => {
    const area = areaOf.get(key);
    if (!area) throw new Error(`${file}: M.${key} is in no area`);
    if (BASE.has(area.file)) {
      used.set('BM', 'base');
      return `BM.${key}`;
    }
    used.set(area.name, area.file);
    return `${area.name}.${key}`;
  });
  if (/(?<![\w.])M\b(?!\.)/.test(src.replace(/import[^;]*;/g, ''))) throw new Error(`${file}: M used other than M.key`);
  const names = [...used.keys()].sort();
  if (inContract) {
    // import { M } from './messages'  /  import { fmt, M } from './messages'
    src = src.replace(/import \{([^}]*)\} from '\.\/messages';\n/, (_, specs: string) => {
      const rest = specs.split(',').map((s) => s.trim()).filter((s) => s && s !== 'M');
      return `import { ${[...rest, ...names].sort().join(', ')} } from './messages';\n`;
    });
  } else {
    src = src.replace(/import \{([^}]*)\} from '@hublink\/contract';\n/, (_, specs: string) => {
      const rest = specs.split(',').map((s) => s.trim()).filter((s) => s && s !== 'M');
      return `import { ${[...rest, ...names].sort((a, b) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''))).join(', ')} } from '@hublink/contract';\n`;
    });
  }
  fs.writeFileSync(file, src);
  console.log(file.replace(/.*packages\//, ''), names.join(' '));
}
