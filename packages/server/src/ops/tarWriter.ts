import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import { Header, Pax } from 'tar';

const BLOCK = 512;

/** A gzipped tar of regular files only, written entry by entry to a new file (mode 0600). */
export class TarGzWriter {
  private readonly gzip: Gzip = createGzip();
  private readonly done: Promise<void>;

  constructor(
    private readonly file: string,
    private readonly mtime: Date,
  ) {
    this.done = pipeline(this.gzip, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    // A failed write is reported by finish() (and by the next write's wait for drain).
    this.done.catch(() => {});
  }

  private async write(chunk: Buffer) {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  private async header(name: string, size: number) {
    const header = new Header({ path: name, mode: 0o600, uid: 0, gid: 0, size, mtime: this.mtime, type: 'File' });
    // A long path (over ustar's 100 + 155) goes in a pax header before the entry.
    if (header.encode()) await this.write(new Pax({ path: name, size, mtime: this.mtime }).encode());
    await this.write(header.block!);
  }

  private async pad(size: number) {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  async addBuffer(name: string, body: Buffer) {
    await this.header(name, body.length);
    await this.write(body);
    await this.pad(body.length);
  }

  /** An entry of exactly `size` bytes from `source`; a source that gives more or fewer throws `changed`. */
  async addStream(name: string, size: number, source: AsyncIterable<Buffer>, changed: () => Error) {
    await this.header(name, size);
    let written = 0;
    for await (const chunk of source) {
      written += chunk.length;
      if (written > size) throw changed();
      await this.write(chunk);
    }
    if (written !== size) throw changed();
    await this.pad(size);
  }

  /** The end-of-archive blocks, then the file flushed to disk. */
  async finish() {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.done;
    const fd = fs.openSync(this.file, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Stops writing after a failure (the caller removes the file). */
  async abort() {
    this.gzip.destroy();
    await this.done.catch(() => {});
  }
}
