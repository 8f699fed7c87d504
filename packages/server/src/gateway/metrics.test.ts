import { describe, expect, it } from 'vitest';
import { GatewayMetrics, LatencyHistogram } from './metrics';

describe('the latency histogram', () => {
  it('gives percentiles within a bucket (about 19%) of the true ones, never above the maximum', () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 1000; i++) h.record(i / 10); // 0.1 … 100 ms
    expect(h.percentile(50)).toBeGreaterThanOrEqual(50);
    expect(h.percentile(50)).toBeLessThan(50 * 1.19);
    expect(h.percentile(99)).toBeGreaterThanOrEqual(99);
    expect(h.percentile(99)).toBeLessThanOrEqual(100);
    expect(h.max).toBe(100);
  });

  it('is 0 when empty, keeps tiny and huge latencies in its end buckets', () => {
    const h = new LatencyHistogram();
    expect(h.percentile(99)).toBe(0);
    h.record(0);
    h.record(10 * 60_000);
    expect(h.count).toBe(2);
    expect(h.percentile(50)).toBeLessThanOrEqual(0.01);
    expect(h.percentile(100)).toBe(10 * 60_000);
  });
});

describe('the gateway metrics', () => {
  it('summarise per message type and start over after each take', () => {
    const m = new GatewayMetrics();
    for (let i = 0; i < 99; i++) m.record('status', 1);
    m.record('hello', 40);
    const first = m.take();
    expect(first.all.count).toBe(100);
    expect(first.all.p50).toBeGreaterThanOrEqual(1);
    expect(first.all.p50).toBeLessThan(1.19);
    expect(first.all.max).toBe(40);
    expect(first.types.hello).toEqual({ count: 1, p50: 40, p99: 40, max: 40 });
    expect(first.types.status!.count).toBe(99);
    const second = m.take();
    expect(second.all.count).toBe(0);
    expect(second.types).toEqual({});
  });
});
