import type { BackoffPolicy } from './backoff';
import { DeviceClient, type ClientState, type Identity } from './client';
import { Scheduler } from './scheduler';
import { SimulatedDevice } from './simulated';

/**
 * `credential`: one issued earlier (the hello skips the secret's slow check); the secret stays the
 * fallback. `localAddress`: where this agent connects from (see loopbackAddress).
 */
export type SimulatedMember = ({ kind: 'router'; router_name: string } | { kind: 'app'; login: string }) & { secret: string; credential?: string; localAddress?: string };

export interface SimulateOptions {
  url: string;
  members: SimulatedMember[];
  /** Hellos are spread evenly over this long (ms), so a large run does not open every socket at once. */
  startSpreadMs?: number;
  linkDelayMs?: [number, number];
  backoff?: BackoffPolicy;
  flowsEvery?: number;
  /** Per-agent log lines; the default drops them (the summary line says what matters at scale). */
  log?: (name: string, line: string) => void;
}

export type SimulationCounts = Record<ClientState, number>;

export interface Simulation {
  readonly clients: readonly DeviceClient[];
  counts(): SimulationCounts;
  /** "200 agents: 198 connected, 1 connecting, 1 failed (r7: 4001 (wrong name, login, secret or credential))". */
  summary(): string;
  stop(): Promise<void>;
}

/**
 * The i-th of many simulated sites' own address on the loopback network (127.1.0.1, 127.1.0.2, …), so
 * a large run is not held to the gateway's connections per address, as sites behind their own
 * addresses are not.
 */
export function loopbackAddress(i: number): string {
  return `127.${1 + Math.floor(i / 62_500)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
}

/** Runs one simulated agent per member in this process, all on one scheduler. */
export function simulate(options: SimulateOptions): Simulation {
  const scheduler = new Scheduler();
  const counts: SimulationCounts = { idle: 0, connecting: 0, connected: 0, waiting: 0, failed: 0, stopped: 0 };
  const last = new Map<DeviceClient, ClientState>();
  const onStateChange = (state: ClientState, client: DeviceClient) => {
    const before = last.get(client) ?? 'idle';
    counts[before]--;
    counts[state]++;
    last.set(client, state);
  };
  const clients = options.members.map((m) => {
    const identity: Identity = m.kind === 'router' ? { kind: 'router', router_name: m.router_name } : { kind: 'app', login: m.login };
    const name = m.kind === 'router' ? m.router_name : m.login;
    const device = new SimulatedDevice({ kind: m.kind, name, scheduler, linkDelayMs: options.linkDelayMs });
    counts.idle++;
    return new DeviceClient({
      url: options.url,
      identity,
      secret: m.secret,
      credential: m.credential,
      localAddress: m.localAddress,
      device,
      scheduler,
      backoff: options.backoff,
      flowsEvery: options.flowsEvery,
      onStateChange,
      log: options.log ? (line) => options.log!(name, line) : () => {},
    });
  });
  const spread = options.startSpreadMs ?? Math.min(20_000, clients.length * 2);
  clients.forEach((client, i) => {
    const at = clients.length > 1 ? (spread * i) / (clients.length - 1) : 0;
    scheduler.after(at, () => client.start());
  });
  return {
    clients,
    counts: () => ({ ...counts }),
    summary: () => {
      const c = counts;
      const line = `${clients.length} agents: ${c.connected} connected, ${c.connecting + c.waiting + c.idle} connecting, ${c.failed} failed`;
      const failed = c.failed ? clients.find((client) => client.state === 'failed') : undefined;
      return failed ? `${line} (${failed.name}: ${failed.failure?.reason ?? ''})` : line;
    },
    stop: async () => {
      await Promise.all(clients.map((c) => c.stop()));
      scheduler.stop();
    },
  };
}
