import path from 'node:path';
import type { Plugin, ResolvedConfig, Rollup } from 'vite';

/** The chunk group of Rolldown's `output.codeSplitting.groups` (Vite's types do not name it). */
export interface ChunkGroup {
  name: string;
  test: (id: string) => boolean;
  priority: number;
}

type Program = ReturnType<Rollup.PluginContext['parse']>;
/** Names a module asks of another: some, or all of them (`import * as`, a bare `import`). */
type Wanted = string[] | 'all';

const nameOf = (node: { type: string; name?: string; value?: unknown }) => (node.type === 'Identifier' ? node.name! : String(node.value));

/**
 * One chunk for the console's shell: the code `roots` use (the console it starts and the sign-in page),
 * less the entry's own (zod and its configuration, which must run first) and the pages' feature
 * folders (src/features: each page keeps its chunk). Left to itself the bundler cuts this code into
 * some 50 chunks by which pages share each module; each is compressed alone and loses what it shares
 * with the others (284 KB of brotli as 58 files, 249 KB as one). Every route loads the shell anyway.
 *
 * What the roots use is followed by name: a module's own code brings what it imports, and what it
 * passes on (`export … from`) is followed only for the names asked of it, so that `import { Button }
 * from 'antd'` brings the button, not the library. The group's `test` is called while chunks are
 * formed, after buildEnd has walked the module graph.
 */
export function shellChunk(roots: string[]): { plugin: Plugin; group: ChunkGroup } {
  let root = '';
  const members = new Set<string>();
  const plugin: Plugin = {
    name: 'hublink:shell-chunk',
    apply: 'build',
    configResolved(config: ResolvedConfig) {
      root = config.root;
    },
    async buildEnd(error) {
      if (error) return;
      const programs = new Map<string, Program | null>();
      /** The module's code as a syntax tree; null for CommonJS (followed whole) and what does not parse. */
      const program = (id: string): Program | null => {
        if (!programs.has(id)) {
          const info = this.getModuleInfo(id);
          let parsed: Program | null = null;
          if (info?.code && info.inputFormat !== 'cjs') {
            try {
              parsed = this.parse(info.code, { lang: /\.tsx?$/.test(id) ? 'tsx' : 'jsx' });
            } catch {
              parsed = null;
            }
          }
          programs.set(id, parsed);
        }
        return programs.get(id)!;
      };
      const resolved = new Map<string, Promise<string | undefined>>();
      const resolve = (source: string, importer: string) => {
        const key = `${importer}\0${source}`;
        if (!resolved.has(key)) resolved.set(key, this.resolve(source, importer).then((r) => r?.id));
        return resolved.get(key)!;
      };

      /** The modules whose code `starts` use, through static imports. */
      const walk = async (starts: string[]) => {
        const used = new Set<string>();
        const asked = new Map<string, Set<string>>();

        const need = async (id: string | undefined, wanted: Wanted): Promise<void> => {
          const info = id ? this.getModuleInfo(id) : null;
          if (!id || !info) return;
          const code = program(id);
          if (!code) {
            if (used.has(id)) return;
            used.add(id);
            for (const imported of info.importedIds) await need(imported, 'all');
            return;
          }
          let seen = asked.get(id);
          if (!seen) {
            seen = new Set<string>();
            asked.set(id, seen);
            used.add(id);
            await ownImports(code, id);
          }
          const names = (wanted === 'all' ? info.exports : wanted).filter((n) => !seen.has(n));
          names.forEach((n) => seen.add(n));
          for (const name of names) await passOn(code, id, name);
        };

        /** What the module's own code imports (not what it only passes on: `import { a }; export { a }`). */
        const ownImports = async (code: Program, id: string) => {
          const passed = new Set(code.body.flatMap((s) => (s.type === 'ExportNamedDeclaration' && !s.source ? s.specifiers.map((x) => nameOf(x.local)) : [])));
          for (const s of code.body) {
            if (s.type !== 'ImportDeclaration' || s.importKind === 'type') continue;
            const specifiers = s.specifiers.filter((x) => !(x.type === 'ImportSpecifier' && x.importKind === 'type'));
            if (s.specifiers.length > 0 && specifiers.every((x) => passed.has(x.local.name))) continue;
            const wanted: Wanted =
              s.specifiers.length === 0 || specifiers.some((x) => x.type === 'ImportNamespaceSpecifier')
                ? 'all'
                : specifiers.map((x) => (x.type === 'ImportSpecifier' ? nameOf(x.imported) : 'default'));
            await need(await resolve(s.source.value, id), wanted);
          }
        };

        /** Follows the module's export `name` to where it comes from, if it is passed on. */
        const passOn = async (code: Program, id: string, name: string) => {
          for (const s of code.body) {
            if (s.type !== 'ExportNamedDeclaration') continue;
            const spec = s.specifiers.find((x) => nameOf(x.exported) === name);
            if (!spec) continue;
            const local = nameOf(spec.local);
            if (s.source) return need(await resolve(s.source.value, id), [local]);
            const from = findImport(code, local);
            if (from) return need(await resolve(from.source, id), from.wanted);
            return;
          }
          for (const s of code.body) {
            if (s.type !== 'ExportAllDeclaration') continue;
            const target = await resolve(s.source.value, id);
            if (s.exported ? nameOf(s.exported) === name : target && this.getModuleInfo(target)?.exports.includes(name)) {
              return need(target, s.exported ? 'all' : [name]);
            }
          }
        };

        for (const start of starts) await need(start, 'all');
        return used;
      };

      const features = path.join(root, 'src/features') + path.sep;
      members.clear();
      for (const id of await walk(roots.map((r) => path.join(root, r)))) {
        if (!id.startsWith(features)) members.add(id);
      }
      if (members.size === 0) this.error(`shellChunk: none of ${roots.join(', ')} is in the build`);
    },
    generateBundle(_options, bundle) {
      // zod reads its configuration (src/app/zodConfig.ts: no eval under the CSP) as each schema is
      // built, so the configuration must run before any of the contract's modules in the chunk.
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const config = chunk.moduleIds.findIndex((id) => id.endsWith(`${path.sep}app${path.sep}zodConfig.ts`));
        const schema = chunk.moduleIds.findIndex((id) => id.includes(`${path.sep}contract${path.sep}src${path.sep}`));
        if (config > schema && schema >= 0) this.error(`shellChunk: ${chunk.fileName} builds the contract's schemas before src/app/zodConfig.ts runs`);
      }
    },
  };
  return { plugin, group: { name: 'shell', test: (id) => members.has(id), priority: 10 } };
}

/** The import that brings `local` into the module, if one does. */
function findImport(code: Program, local: string): { source: string; wanted: Wanted } | null {
  for (const s of code.body) {
    if (s.type !== 'ImportDeclaration') continue;
    const x = s.specifiers.find((spec) => spec.local.name === local);
    if (!x) continue;
    return { source: s.source.value, wanted: x.type === 'ImportSpecifier' ? [nameOf(x.imported)] : x.type === 'ImportDefaultSpecifier' ? ['default'] : 'all' };
  }
  return null;
}
