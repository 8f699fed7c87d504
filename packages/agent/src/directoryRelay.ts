import net from 'node:net';
import { DIRECTORY_RELAY, type DeviceMessage } from '@hublink/contract';

/*
 * The router's side of LDAP private mode (issue 33, docs/device-protocol.md "Directory relay"): the
 * server reaches a directory inside this router's network through it. The agent opens a TCP connection
 * only when the gateway asks (directory_open), only to the host and port the gateway named for this
 * router (directory_target), at most DIRECTORY_RELAY.connections at a time, and relays the bytes over
 * its gateway session. It listens on nothing. TLS, when the directory uses it, runs end to end between
 * the server and the directory: the agent sees only ciphertext.
 */

type Send = (message: DeviceMessage) => boolean;

interface Relayed {
  socket: net.Socket;
  opened: boolean;
  /** Bytes read and not sent yet: what arrives within one turn of the event loop goes as one message. */
  pending: Buffer[];
  pendingBytes: number;
  flushing: boolean;
}

const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

export class DirectoryRelay {
  private target: { host: string; port: number } | null = null;
  private readonly open = new Map<string, Relayed>();

  constructor(
    private readonly send: Send,
    private readonly log: (line: string) => void,
  ) {}

  get connections(): number {
    return this.open.size;
  }

  /** directory_target: the one directory this router may reach for the server (host '': none). */
  name(host: string, port: number): void {
    this.target = host ? { host, port } : null;
  }

  /** directory_open: a connection to the named target, answered with directory_opened. */
  connect(id: string, host: string, port: number): void {
    const refuse = (error: string) => {
      this.log(`directory relay: refused ${host}:${port} (${error})`);
      this.send({ type: 'directory_opened', id, ok: false, error });
    };
    if (!this.target || !sameHost(this.target.host, host) || this.target.port !== port) return refuse('not_named');
    if (this.open.has(id)) return refuse('duplicate');
    if (this.open.size >= DIRECTORY_RELAY.connections) return refuse('too_many');
    const socket = net.connect({ host, port });
    const relayed: Relayed = { socket, opened: false, pending: [], pendingBytes: 0, flushing: false };
    this.open.set(id, relayed);
    socket.setNoDelay(true);
    socket.setTimeout(DIRECTORY_RELAY.openTimeoutSeconds * 1000, () => socket.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    socket.once('connect', () => {
      socket.setTimeout(0);
      relayed.opened = true;
      this.send({ type: 'directory_opened', id, ok: true, error: '' });
    });
    socket.on('data', (chunk: Buffer) => this.queue(id, relayed, chunk));
    let error = '';
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? 'EIO'));
    socket.on('close', () => {
      if (this.open.get(id) !== relayed) return;
      this.flush(id, relayed);
      this.open.delete(id);
      if (relayed.opened) this.send({ type: 'directory_close', id, error });
      else {
        this.log(`directory relay: ${host}:${port} failed (${error || 'closed'})`);
        this.send({ type: 'directory_opened', id, ok: false, error: error || 'ECONNRESET' });
      }
    });
  }

  /** directory_data from the server: written to the directory. */
  write(id: string, data: string): void {
    const r = this.open.get(id);
    if (r?.opened) r.socket.write(Buffer.from(data, 'base64'));
  }

  /** directory_close from the server: the connection ends, without a close back. */
  close(id: string): void {
    const r = this.open.get(id);
    if (!r) return;
    this.open.delete(id);
    r.socket.destroy();
  }

  /** The gateway session ended: every relayed connection ends with it (the server forgot them). */
  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }

  private queue(id: string, r: Relayed, chunk: Buffer): void {
    r.pending.push(chunk);
    r.pendingBytes += chunk.length;
    if (r.pendingBytes >= DIRECTORY_RELAY.chunkBytes) return this.flush(id, r);
    if (r.flushing) return;
    r.flushing = true;
    setImmediate(() => {
      r.flushing = false;
      this.flush(id, r);
    });
  }

  private flush(id: string, r: Relayed): void {
    if (r.pendingBytes === 0) return;
    const all = Buffer.concat(r.pending);
    r.pending = [];
    r.pendingBytes = 0;
    for (let at = 0; at < all.length; at += DIRECTORY_RELAY.chunkBytes) {
      this.send({ type: 'directory_data', id, data: all.subarray(at, at + DIRECTORY_RELAY.chunkBytes).toString('base64') });
    }
  }
}
