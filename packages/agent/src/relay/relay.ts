import { CODE, RELAY_PATH, relayTable, type RelayTable } from '@hublink/contract';
import { AGENT_VERSION } from '../version';
import { Forwarder } from './forwarder';

/*
 * `hublink relay` (issue 30): a POP relay. Every RELAY_TIMING.pollSeconds it posts its load to the
 * server with its token and applies the forwarding table it gets back; the post is its liveness. While
 * the server cannot be reached it keeps forwarding with the table it has. A refused token (the relay
 * was removed) stops it: every port closes and it exits 1.
 */

export interface RelayOptions {
  /** The server's HTTP origin. */
  server: string;
  token: string;
  /** Address the ports are bound on (default: every address). */
  bindHost?: string;
  log?: (line: string) => void;
}

export class Relay {
  private readonly forwarder: Forwarder;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private pollMs = 3000;
  private failures = 0;
  /** Resolves with the exit code once the relay stops for good. */
  readonly done: Promise<number>;
  private finish!: (code: number) => void;
  private area = '';

  constructor(private readonly opts: RelayOptions) {
    this.forwarder = new Forwarder({ log: (l) => this.log(l) }, { bindHost: opts.bindHost });
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  start(): void {
    void this.tick();
  }

  async stop(code = 0): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.forwarder.stop();
    this.finish(code);
  }

  private log(line: string): void {
    (this.opts.log ?? console.log)(`[relay${this.area ? ` ${this.area}` : ''}] ${line}`);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      const table = await this.sync();
      if (table === 'refused') {
        this.log('the server refused the token (removed?): stopping');
        await this.stop(1);
        return;
      }
      if (this.failures > 0) this.log('the server answers again');
      this.failures = 0;
      this.area = table.area;
      this.pollMs = table.poll_seconds * 1000;
      await this.forwarder.apply(table.forwards);
    } catch (e) {
      if (this.failures === 0) this.log(`the server cannot be reached (${e instanceof Error ? e.message : String(e)}): forwarding with the table it has`);
      this.failures += 1;
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.pollMs);
  }

  private async sync(): Promise<RelayTable | 'refused'> {
    const res = await fetch(`${this.opts.server}${RELAY_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.opts.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...this.forwarder.load(), version: AGENT_VERSION }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { code?: number; msg?: string; data?: unknown };
    if (body.code === CODE.tokenInvalid) return 'refused';
    if (body.code !== CODE.ok) throw new Error(`the server answered ${body.code ?? res.status}: ${body.msg ?? ''}`);
    return relayTable.parse(body.data);
  }
}
