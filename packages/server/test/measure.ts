import type { NetLab, NsProcess } from './netns';
import { until } from './until';

/*
 * Measurements for the data-plane laboratory: how long a path was out (a Pinger: `ping -D` every
 * 100 ms, each reply stamped by ping when it came, so a loaded machine delays what the test reads, not
 * the times), and throughput (iperf3).
 */

/** A span without replies: from the last reply before it to the first after it (ms since the epoch). */
export interface Gap {
  from: number;
  to: number;
  ms: number;
}

/**
 * Pings `to` from `fromNs` continuously (`ping -n -D -i 0.1`, as root) and keeps the time of each reply.
 * Times are ms since the epoch, the same clock as Date.now().
 */
export class Pinger {
  /** Reply times, in order. */
  readonly replies: number[] = [];
  readonly startedAt = Date.now();

  private constructor(
    readonly process: NsProcess,
    readonly intervalMs: number,
  ) {
    process.onLine((line) => {
      const m = /^\[(\d+\.\d+)\] \d+ bytes from /.exec(line.text);
      if (m) this.replies.push(Math.round(Number(m[1]) * 1000));
    });
  }

  static start(lab: NetLab, fromNs: string, to: string, options: { intervalMs?: number; size?: number } = {}): Pinger {
    const intervalMs = options.intervalMs ?? 100;
    const args = ['-n', '-D', '-i', String(intervalMs / 1000), ...(options.size ? ['-s', String(options.size)] : []), to];
    return new Pinger(lab.start(fromNs, `ping ${to}`, 'ping', args, lab.tempDir()), intervalMs);
  }

  /** Replies in [from, to). */
  count(from: number, to = Infinity): number {
    return this.replies.filter((t) => t >= from && t < to).length;
  }

  /** Waits for a reply at or after `after` (by default: now) and returns its time. */
  async waitForReply(after = Date.now(), timeoutMs?: number): Promise<number> {
    let found: number | undefined;
    await until(
      () => {
        if (this.process.exitCode !== undefined) throw new Error(`ping ended (${this.process.exitCode}): ${this.process.tail(5)}`);
        found = this.replies.find((t) => t >= after);
        return found !== undefined;
      },
      `a reply from ${this.process.name.slice(5)} after ${new Date(after).toISOString()}`,
      timeoutMs,
    );
    return found!;
  }

  /** Waits until no reply has come for `ms` (a path that went out) and returns when the last came. */
  async waitForSilence(ms: number, timeoutMs?: number): Promise<number> {
    await until(() => Date.now() - (this.replies.at(-1) ?? this.startedAt) >= ms, `no reply for ${ms} ms`, timeoutMs);
    return this.replies.at(-1) ?? this.startedAt;
  }

  /**
   * The spans without replies longer than `minMs` (by default 2.5 intervals) in [from, to]: each runs
   * from the last reply before it (or `from`) to the first after it (or `to`, should none have come
   * yet: an open gap).
   */
  gaps(from: number, to = Date.now(), minMs = 2.5 * this.intervalMs): Gap[] {
    const times = this.replies.filter((t) => t > from && t < to);
    const before = this.replies.filter((t) => t <= from).at(-1) ?? from;
    const edges = [before, ...times, to];
    const out: Gap[] = [];
    for (let i = 1; i < edges.length; i++) {
      const ms = edges[i]! - edges[i - 1]!;
      if (ms > minMs) out.push({ from: edges[i - 1]!, to: edges[i]!, ms });
    }
    return out;
  }

  /** The longest span without replies in [from, to] (ms 0 when replies came at every interval). */
  longestGap(from: number, to = Date.now()): Gap {
    return this.gaps(from, to, 0).reduce<Gap>((a, b) => (b.ms > a.ms ? b : a), { from, to: from, ms: 0 });
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

export interface Outage {
  /** When `during` began (ms since the epoch). */
  mark: number;
  /** The longest span without replies from the mark to the end. */
  longestGapMs: number;
  /** From the mark to the first reply after that longest gap (0: no gap longer than 2.5 intervals). */
  resumedAfterMs: number;
  /** Every gap longer than 2.5 intervals from the mark on: more than one is a flap. */
  gaps: Gap[];
}

/**
 * Pings `toAddress` from `fromNs`; once replies come, runs `during` (given the pinger, to wait on it)
 * and then waits (bounded by `resumeTimeoutMs`) for replies again, `settleMs` of them, and reports
 * the outage from the moment `during` began.
 */
export async function outage(
  lab: NetLab,
  fromNs: string,
  toAddress: string,
  during: (pinger: Pinger) => Promise<void>,
  options: { intervalMs?: number; resumeTimeoutMs?: number; settleMs?: number } = {},
): Promise<Outage> {
  const pinger = Pinger.start(lab, fromNs, toAddress, { intervalMs: options.intervalMs });
  try {
    await pinger.waitForReply(pinger.startedAt);
    const mark = Date.now();
    await during(pinger);
    const resumed = await pinger.waitForReply(Date.now(), options.resumeTimeoutMs ?? 60_000);
    const settle = options.settleMs ?? 1000;
    await until(() => pinger.count(resumed) >= Math.floor(settle / pinger.intervalMs) || Date.now() - resumed > 4 * settle, 'replies after the outage', 4 * settle + 10_000);
    const end = Date.now();
    const gaps = pinger.gaps(mark, end);
    const longest = pinger.longestGap(mark, end);
    return { mark, longestGapMs: longest.ms, resumedAfterMs: gaps.length === 0 ? 0 : longest.to - mark, gaps };
  } finally {
    await pinger.stop();
  }
}

/** Waits until a ping from `ns` to `address` is answered (NetLab.waitForPing, with a bound of one's own). */
export async function waitForPing(lab: NetLab, ns: string, address: string, timeoutMs?: number): Promise<void> {
  await until(() => lab.pings(ns, address), `ping from ${ns} to ${address}`, timeoutMs);
}

/**
 * Throughput from `clientNs` to an iperf3 server in `serverNs` on `address`, in Mbit/s (received, as
 * iperf3 -J's end.sum_received). `reverse`: from the server to the client.
 */
export async function iperf3(
  lab: NetLab,
  serverNs: string,
  address: string,
  clientNs: string,
  seconds = 2,
  options: { port?: number; reverse?: boolean } = {},
): Promise<number> {
  const port = String(options.port ?? 5201);
  const server = lab.start(serverNs, `iperf3 -s ${address}`, 'iperf3', ['-s', '-1', '--forceflush', '-B', address, '-p', port], lab.tempDir());
  try {
    await server.waitForLine(/Server listening/);
    const out = await lab.exec(clientNs, 'iperf3', ['-J', '-c', address, '-p', port, '-t', String(seconds), ...(options.reverse ? ['-R'] : [])]);
    const report = JSON.parse(out) as { end?: { sum_received?: { bits_per_second?: number } }; error?: string };
    if (report.error || !report.end?.sum_received?.bits_per_second) throw new Error(`iperf3 to ${address}: ${report.error ?? 'no result'}`);
    return report.end.sum_received.bits_per_second / 1e6;
  } finally {
    await server.stop();
  }
}
