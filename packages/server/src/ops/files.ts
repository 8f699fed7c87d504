import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A path given on the command line: a relative one is taken from where `npm run ops` was typed (npm runs it at the repository's top). */
export const cliPath = (given: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), given);

export const FILE_ERRORS: Record<string, string> = { ENOENT: 'no such file', EISDIR: 'it is a folder', EACCES: 'permission denied' };

/** The first `max` bytes of a regular file. */
export function readAtMost(file: string, max: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    const body = Buffer.alloc(Math.min(stat.size, max));
    let read = 0;
    while (read < body.length) {
      const n = fs.readSync(fd, body, read, body.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return body.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file named on the command line, read as { name, body }; one that cannot be read is bad input.
 * At most `max` + 1 bytes are read: the service refuses anything over `max` with its own message.
 */
export const fileArg = (what: string, max: number) =>
  z.string({ error: `${what} needs a path` }).transform((file, ctx) => {
    try {
      return { name: path.basename(file), body: readAtMost(cliPath(file), max + 1) };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      ctx.addIssue({ code: 'custom', message: `cannot read ${file}: ${FILE_ERRORS[code] ?? (e as Error).message}` });
      return z.NEVER;
    }
  });

