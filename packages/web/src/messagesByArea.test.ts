// @vitest-environment node
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The console's and the contract's sources that end up in the console's bundles (not tests, not the texts themselves). */
function bundledSources(dir: string, skip: (file: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f))
    .filter((f) => !skip(f));
}

/** An import of M, every area's texts in one object: `import { …, M, … } from '<from>'`. */
const importsM = (source: string, from: string) =>
  [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)].some(([, names, module]) => module === from && names!.split(',').some((n) => n.trim() === 'M'));

describe('each route carries only the texts it shows (docs/performance.md, "The sign-in budget")', () => {
  it('no console source imports M: pages take BM and their areas’ objects', () => {
    const sources = bundledSources('packages/web/src', (f) => f.includes(`${path.sep}test${path.sep}`));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((f) => importsM(fs.readFileSync(path.join(repoRoot, f), 'utf8'), '@hublink/contract'))).toEqual([]);
  });

  it('no schema of the contract imports M', () => {
    const sources = bundledSources('packages/contract/src', (f) => f.includes(`${path.sep}messages${path.sep}`));
    expect(sources.length).toBeGreaterThan(20);
    expect(sources.filter((f) => importsM(fs.readFileSync(path.join(repoRoot, f), 'utf8'), './messages'))).toEqual([]);
  });

  it('finds an import of M however it is written', () => {
    expect(importsM("import { fmt, M } from '@hublink/contract';", '@hublink/contract')).toBe(true);
    expect(importsM("import {\n  LIMITS,\n  M,\n} from '@hublink/contract';", '@hublink/contract')).toBe(true);
    expect(importsM("import { BM, networkMessages } from '@hublink/contract';", '@hublink/contract')).toBe(false);
  });
});
