import type { AddressInfo } from 'node:net';
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { TestDevice, routerHello } from '../../test/device';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';
import { loadConfig } from '../config';
import { defineModule } from './module';

const TOKEN = 'metrics-token-0123456789';

/** A value of the exposition text: the sample line that starts with `series` (name and labels as written). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics settings', () => {
  it('refuses HUBLINK_METRICS=1 without a token or a port, in one line', () => {
    expect(() => loadConfig({ HUBLINK_METRICS: '1' })).toThrow(/^HUBLINK_METRICS=1 needs HUBLINK_METRICS_TOKEN .* or HUBLINK_METRICS_PORT/);
    expect(() => loadConfig({ HUBLINK_METRICS: '1', HUBLINK_METRICS_TOKEN: 'short' })).toThrow('HUBLINK_METRICS_TOKEN must be at least 16 characters');
    expect(() => loadConfig({ HUBLINK_METRICS: '1', HUBLINK_METRICS_PORT: '8080' })).toThrow(/other than PORT/);
    expect(loadConfig({ HUBLINK_METRICS: '1', HUBLINK_METRICS_PORT: '9464' })).toMatchObject({ metrics: true, metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(loadConfig({})).toMatchObject({ metrics: false, metricsToken: undefined, metricsPort: undefined });
  });

  it('answers 404 at /metrics when metrics are off, even with a token', async () => {
    const t = await createTestApp('sqlite', { modules: [] });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 404 });
    } finally {
      await t.close();
    }
  });
});

for (const dialect of DATABASES) {
  describe(`metrics behind a token [${dialect}]`, () => {
    let t: TestApp;
    let base: string;
    const delivered: number[] = [];
    const probe = defineModule({
      name: 'metricsprobe',
      jobs: [{ name: 'metricsprobe.tick', run: async () => {} }],
      on: { 'member.changed': async (e) => void delivered.push(e.member_id) },
    });

    const scrape = async (authorization?: string) => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      return { status: res.statusCode, type: String(res.headers['content-type']), text: res.body };
    };

    beforeAll(async () => {
      t = await createTestApp(dialect, {
        config: { metrics: true, metricsToken: TOKEN, runJobs: true },
        modules: [probe],
        backbone: { jobPollSeconds: 0.5, events: { pollMs: 50 } },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('asks for the token: 401 without it or with another, the text with it', async () => {
      expect((await scrape()).status).toBe(401);
      expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401);
      expect((await scrape(`Basic ${TOKEN}`)).status).toBe(401);
      const ok = await scrape(`Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(ok.text).toContain('process_cpu_user_seconds_total');
      expect(ok.text).toContain('nodejs_eventloop_lag_seconds');
    });

    it('counts requests by route pattern and status, with a latency histogram, and unknown routes as one', async () => {
      await newAccount(t);
      for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: `/api/v1/no/such/${i}` });
      const { text } = await scrape(`Bearer ${TOKEN}`);
      expect(sample(text, 'hublink_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(3);
      expect(text).not.toContain('/api/v1/no/such');
      expect(sample(text, 'hublink_http_requests_total{method="POST",route="/api/v1/login/authorization",status="200"}')).toBe(1);
      expect(sample(text, 'hublink_http_request_duration_seconds_count{method="POST",route="/api/v1/login/authorization"}')).toBe(1);
      expect(sample(text, 'hublink_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/v1/login/authorization"}')).toBe(1);
      expect(sample(text, 'hublink_db_query_duration_seconds_count{kind="select",outcome="ok"}')).toBeGreaterThan(0);
      expect(sample(text, 'hublink_db_query_duration_seconds_count{kind="insert",outcome="ok"}')).toBeGreaterThan(0);
      if (dialect === 'postgres') expect(sample(text, 'hublink_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    });

    it('counts job runs by job and outcome', async () => {
      await t.ctx.jobs.send('metricsprobe.tick');
      await until(async () => (sample((await scrape(`Bearer ${TOKEN}`)).text, 'hublink_job_runs_total{job="metricsprobe.tick",outcome="ok"}') ?? 0) >= 1, 'the job run counted');
      const { text } = await scrape(`Bearer ${TOKEN}`);
      expect(sample(text, 'hublink_job_duration_seconds_count{job="metricsprobe.tick"}')).toBe(1);
    });

    it('measures event dispatch lag and counts deliveries', async () => {
      const before = sample((await scrape(`Bearer ${TOKEN}`)).text, 'hublink_event_dispatch_lag_seconds_count') ?? 0;
      await t.ctx.events.emit(t.db, { type: 'member.changed', tenant_id: 1, member_id: 424242, fields: ['note'] });
      await t.ctx.events.settle();
      expect(delivered).toContain(424242);
      const { text } = await scrape(`Bearer ${TOKEN}`);
      expect(sample(text, 'hublink_event_dispatch_lag_seconds_count')).toBeGreaterThan(before);
      expect(sample(text, 'hublink_event_deliveries_total{outcome="done"}')).toBeGreaterThan(0);
      expect(sample(text, 'hublink_event_oldest_due_seconds')).toBe(0);
    });

    it('shows connected devices and device messages', async () => {
      const a = await newAccount(t);
      const [name] = await seedFreshMembers(t, a.account.id, 1);
      const device = await TestDevice.open(base);
      try {
        device.send(routerHello(name!, SEEDED_MEMBER_SECRET));
        await device.next('welcome');
        // The gateway counts the hello once its handling ends, just after it sends the welcome.
        let text = '';
        await until(async () => {
          text = (await scrape(`Bearer ${TOKEN}`)).text;
          return sample(text, 'hublink_gateway_messages_total{type="hello"}') === 1;
        }, 'the hello counted');
        expect(sample(text, 'hublink_gateway_connected_devices')).toBe(1);
        expect(sample(text, 'hublink_gateway_messages_total{type="hello"}')).toBe(1);
        expect(sample(text, 'hublink_gateway_message_duration_seconds_count{type="hello"}')).toBe(1);
      } finally {
        device.close();
      }
      await until(async () => sample((await scrape(`Bearer ${TOKEN}`)).text, 'hublink_gateway_connected_devices') === 0, 'the device counted gone');
    });
  });
}
