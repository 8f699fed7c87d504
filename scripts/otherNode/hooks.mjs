// Loaded with `--import` in every process of a run under another Node version (scripts/otherNode):
// better-sqlite3, the one native module the server loads, is taken from the copy built for that
// version instead of the one `npm install` built for the Node running npm. The hook remaps what the
// resolver found, so it holds whether a file names the package or a tool (vitest) names its path.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const copy = process.env.HUBLINK_SQLITE_COPY;
if (!copy) throw new Error('HUBLINK_SQLITE_COPY is not set: it names the better-sqlite3 copy built for this Node');
const installed = new URL('../../node_modules/better-sqlite3/', import.meta.url).href;
const built = pathToFileURL(`${copy}/`).href;

registerHooks({
  resolve(specifier, context, next) {
    const found = next(specifier, context);
    return found.url.startsWith(installed) ? { ...found, url: built + found.url.slice(installed.length) } : found;
  },
});
