import { Writable } from 'node:stream';

/** pino's levels, as the JSON lines carry them. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** One log line as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

/** A stream to give an app as its log (createTestApp's logStream), and the lines written to it so far. */
export function logCapture(): { lines: LogLine[]; logStream: Writable } {
  const lines: LogLine[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as LogLine);
      done();
    },
  });
  return { lines, logStream };
}
