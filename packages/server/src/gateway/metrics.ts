/**
 * Per-message handling latency of the gateway (receipt of a device message to the end of its handling,
 * its wait behind the session's earlier messages included), kept in fixed histograms: recording is a
 * logarithm and an increment, whatever the message rate. Read by the load benchmark (bench/gateway.ts)
 * through the summary line the gateway logs when HUBLINK_GATEWAY_METRICS is set.
 */

/** Bucket i holds latencies up to FLOOR_MS · 2^(i/STEPS): about 19% wide, from 10 µs to over a minute. */
const FLOOR_MS = 0.01;
const STEPS = 4;
const BUCKETS = 96;

export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  max = 0;

  record(ms: number) {
    const i = ms <= FLOOR_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(STEPS * Math.log2(ms / FLOOR_MS)));
    this.counts[i]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  /** The upper bound of the bucket holding the p-th percentile (0 when empty). */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      // The last bucket has no upper bound of its own.
      if (seen >= rank) return i === BUCKETS - 1 ? this.max : Math.min(this.max, FLOOR_MS * 2 ** (i / STEPS));
    }
    return this.max;
  }

  reset() {
    this.counts.fill(0);
    this.count = 0;
    this.max = 0;
  }
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Histograms per message type ('hello' for the first message of a socket) and for all together. */
export class GatewayMetrics {
  private readonly all = new LatencyHistogram();
  private readonly byType = new Map<string, LatencyHistogram>();

  /** `also` sees every record too (the Prometheus metrics, core/metrics.ts). */
  constructor(private readonly also?: (type: string, ms: number) => void) {}

  record(type: string, ms: number) {
    this.also?.(type, ms);
    this.all.record(ms);
    let h = this.byType.get(type);
    if (!h) {
      h = new LatencyHistogram();
      this.byType.set(type, h);
    }
    h.record(ms);
  }

  /** What was recorded since the last call, then starts over. */
  take(): { all: LatencySummary; types: Record<string, LatencySummary> } {
    const summary = (h: LatencyHistogram): LatencySummary => ({ count: h.count, p50: round(h.percentile(50)), p99: round(h.percentile(99)), max: round(h.max) });
    const types: Record<string, LatencySummary> = {};
    for (const [type, h] of this.byType) if (h.count > 0) types[type] = summary(h);
    const out = { all: summary(this.all), types };
    this.all.reset();
    for (const h of this.byType.values()) h.reset();
    return out;
  }
}
