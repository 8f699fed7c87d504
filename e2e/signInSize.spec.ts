import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** What Vite's build manifest says of one chunk. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const DIST = path.resolve(import.meta.dirname, '../packages/web/dist');

/**
 * The scripts a cold sign-in runs, gzipped, may not grow past this. It was 393 KB; the console's frame,
 * the placeholder and error pages, the user menu, antd's Card and Typography, dayjs and the other areas'
 * schemas left the route for 319 KB. Issue 11's 250 KB is below what React, React Router, antd's form
 * and App, zod and TanStack Query weigh by themselves (a bare sign-in form on them: 250 KB), so the
 * line is held just above today's figure (docs/decisions.md, "The sign-in budget"). Raised from 330 KB
 * for issues 14 and 15: every area's texts live in the one namespace M, which the route carries whole
 * (about 30 KB of its 336 KB); splitting M by area is the way down, not a higher line. Issue 30 began
 * it: the standard clients' and the self-service page's texts (CM, SM) are not in M and travel with the
 * pages that show them.
 */
const SIGN_IN_BUDGET_KB = 345;

/** Before the sign-in form shows: the entry, the console it starts at once, the sign-in page, and what each imports statically. */
const SIGN_IN_MODULES = ['src/app/start.tsx', 'src/features/auth/LoginPage.tsx'];

function signInScripts(manifest: Record<string, ManifestChunk>): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  expect(entry).toBeDefined();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    expect({ key, inManifest: chunk !== undefined }).toEqual({ key, inManifest: true });
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk!.imports ?? []) visit(imported);
  };
  for (const key of [entry!, ...SIGN_IN_MODULES]) visit(key);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

describe('the sign-in route of the production build', () => {
  it(`runs at most ${SIGN_IN_BUDGET_KB} KB of script, gzipped`, () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const files = signInScripts(manifest);
    const sizes = files.map((file) => {
      const body = fs.readFileSync(path.join(DIST, file));
      return { file, raw: body.length, gzip: zlib.gzipSync(body).length };
    });
    const total = (key: 'raw' | 'gzip') => sizes.reduce((sum, s) => sum + s[key], 0) / 1024;
    console.log(`sign-in route: ${files.length} scripts, ${total('raw').toFixed(0)} KB raw, ${total('gzip').toFixed(0)} KB gzipped`);
    expect(total('gzip')).toBeLessThanOrEqual(SIGN_IN_BUDGET_KB);
  });
});
