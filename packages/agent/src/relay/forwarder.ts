import dgram from 'node:dgram';
import { RELAY_LIMITS, RELAY_TIMING, type RelayForward } from '@hublink/contract';

/*
 * The POP relay's data path (issue 30): a plain UDP forwarder. Each listen port forwards to one
 * center's address; each client (source address and port) of a port gets an upstream socket of its
 * own, so the center sees one peer per client and its answers find their way back. A flow that
 * carried nothing for RELAY_TIMING.flowIdleSeconds is forgotten. The relay reads nothing of the
 * packets: OpenVPN's tls-crypt keeps them opaque, and the centers' certificates keep a relay from
 * posing as one.
 *
 * A new table replaces the old one port by port: a port whose target did not change keeps its socket
 * and its flows; a port that went is closed with its flows; a port whose target moved drops its flows
 * (the clients' next packets open new ones to the new target).
 */

export interface ForwarderEvents {
  log(line: string): void;
}

interface Flow {
  upstream: dgram.Socket;
  lastSeen: number;
}

interface Listener {
  forward: RelayForward;
  socket: dgram.Socket;
  flows: Map<string, Flow>;
}

export interface ForwarderLoad {
  sessions: number;
  bytes_in: number;
  bytes_out: number;
}

export class Forwarder {
  private readonly listeners = new Map<number, Listener>();
  private bytesIn = 0;
  private bytesOut = 0;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly events: ForwarderEvents,
    private readonly opts: { bindHost?: string; idleMs?: number; maxFlows?: number } = {},
  ) {
    this.sweep = setInterval(() => this.forgetIdle(), 5_000);
    this.sweep.unref();
  }

  /** Flows held and bytes carried so far (from clients in, from centers out). */
  load(): ForwarderLoad {
    let sessions = 0;
    for (const l of this.listeners.values()) sessions += l.flows.size;
    return { sessions, bytes_in: this.bytesIn, bytes_out: this.bytesOut };
  }

  /** The ports listened on now. */
  ports(): number[] {
    return [...this.listeners.keys()].sort((a, b) => a - b);
  }

  /** Applies a forwarding table (see the file's comment for what survives). */
  async apply(forwards: RelayForward[]): Promise<void> {
    const wanted = new Map(forwards.map((f) => [f.port, f]));
    for (const [port, l] of this.listeners) {
      const next = wanted.get(port);
      if (!next) {
        this.close(l);
        this.listeners.delete(port);
        this.events.log(`port ${port} closed (${l.forward.label})`);
      } else if (next.host !== l.forward.host || next.target_port !== l.forward.target_port) {
        for (const f of l.flows.values()) f.upstream.close();
        l.flows.clear();
        this.events.log(`port ${port} now forwards to ${next.host}:${next.target_port} (${next.label})`);
        l.forward = next;
      } else {
        l.forward = next;
      }
    }
    for (const f of forwards) {
      if (this.listeners.has(f.port)) continue;
      try {
        this.listeners.set(f.port, await this.listen(f));
        this.events.log(`port ${f.port} forwards to ${f.host}:${f.target_port} (${f.label})`);
      } catch (e) {
        this.events.log(`port ${f.port} cannot be bound: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.sweep);
    for (const l of this.listeners.values()) this.close(l);
    this.listeners.clear();
  }

  private listen(forward: RelayForward): Promise<Listener> {
    const socket = dgram.createSocket('udp4');
    const listener: Listener = { forward, socket, flows: new Map() };
    socket.on('message', (msg, from) => this.fromClient(listener, msg, from));
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(forward.port, this.opts.bindHost, () => {
        socket.off('error', reject);
        socket.on('error', (e) => this.events.log(`port ${forward.port}: ${e.message}`));
        resolve(listener);
      });
    });
  }

  private fromClient(l: Listener, msg: Buffer, from: dgram.RemoteInfo): void {
    this.bytesIn += msg.length;
    const key = `${from.address}:${from.port}`;
    let flow = l.flows.get(key);
    if (!flow) {
      if (this.load().sessions >= (this.opts.maxFlows ?? RELAY_LIMITS.flows)) return;
      const upstream = dgram.createSocket('udp4');
      upstream.on('message', (back) => {
        this.bytesOut += back.length;
        const f = l.flows.get(key);
        if (f) f.lastSeen = Date.now();
        l.socket.send(back, from.port, from.address);
      });
      upstream.on('error', (e) => this.events.log(`flow ${key} → ${l.forward.host}:${l.forward.target_port}: ${e.message}`));
      flow = { upstream, lastSeen: Date.now() };
      l.flows.set(key, flow);
    }
    flow.lastSeen = Date.now();
    flow.upstream.send(msg, l.forward.target_port, l.forward.host);
  }

  /** Closes the flows idle for longer than the idle time (every 5 s on its own). */
  forgetIdle(now = Date.now()): void {
    const idle = this.opts.idleMs ?? RELAY_TIMING.flowIdleSeconds * 1000;
    for (const l of this.listeners.values()) {
      for (const [key, f] of l.flows) {
        if (now - f.lastSeen > idle) {
          f.upstream.close();
          l.flows.delete(key);
        }
      }
    }
  }

  private close(l: Listener): void {
    for (const f of l.flows.values()) f.upstream.close();
    l.flows.clear();
    l.socket.close();
  }
}
