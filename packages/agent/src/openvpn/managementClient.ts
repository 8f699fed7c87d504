import { Socket } from 'node:net';
import { ClientBlocks, parseRealtime, type RealtimeEvent } from './management';

interface Pending {
  /** Multi-line answers end with END; one-line ones are the SUCCESS:/ERROR: line. */
  multiline: boolean;
  lines: string[];
  resolve: (lines: string[]) => void;
  reject: (e: Error) => void;
}

/**
 * A line-oriented client of one OpenVPN management port: commands are answered in order, and '>' lines
 * (real-time notifications) go to onEvent whenever they arrive, even in the middle of an answer.
 */
export class ManagementClient {
  private socket: Socket | null = null;
  private buffer = '';
  private readonly queue: Pending[] = [];
  private readonly clientBlocks = new ClientBlocks();
  closed = false;

  constructor(
    private readonly onEvent: (event: RealtimeEvent) => void,
    private readonly onClose: () => void = () => {},
  ) {}

  connect(port: number, host = '127.0.0.1'): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      socket.setEncoding('utf8');
      socket.once('error', reject);
      socket.connect(port, host, () => {
        socket.off('error', reject);
        socket.on('error', () => {});
        this.socket = socket;
        resolve();
      });
      socket.on('data', (chunk: string) => this.onData(chunk));
      socket.on('close', () => {
        if (this.socket !== socket) return;
        this.closed = true;
        for (const p of this.queue.splice(0)) p.reject(new Error('management connection closed'));
        this.onClose();
      });
    });
  }

  /** `status 3` and `state` answer with many lines; everything else with one. */
  command(line: string): Promise<string[]> {
    const socket = this.socket;
    if (!socket || this.closed) return Promise.reject(new Error('management not connected'));
    const multiline = /^(status|state)(\s+\d+)?$/.test(line.trim()) || line.trim() === 'state all';
    return new Promise((resolve, reject) => {
      this.queue.push({ multiline, lines: [], resolve, reject });
      socket.write(`${line}\n`);
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.socket = null;
  }

  /** Feeds raw text as if read from the socket (used by the socket handler, and by tests with captured output). */
  onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (line.startsWith('>CLIENT:')) {
      const client = this.clientBlocks.feed(line);
      if (client) this.onEvent({ type: 'client', client });
      return;
    }
    if (line.startsWith('>')) {
      if (!line.startsWith('>INFO:')) this.onEvent(parseRealtime(line));
      return;
    }
    const pending = this.queue[0];
    if (!pending) return;
    if (!pending.multiline || line.startsWith('ERROR:')) {
      this.queue.shift();
      if (line.startsWith('ERROR:')) pending.reject(new Error(line));
      else pending.resolve([line]);
      return;
    }
    if (line === 'END') {
      this.queue.shift();
      pending.resolve(pending.lines);
      return;
    }
    pending.lines.push(line);
  }
}
