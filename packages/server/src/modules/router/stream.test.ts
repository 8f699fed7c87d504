import { CODE, deleteRouter, LIMITS, M, routerInfo, routerTraffic } from '@hublink/contract';
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, describeEachDatabase, newAccount, ramToken, sharedDatabase, signIn, type TestApp } from '../../../test/helpers';
import { urlForLog } from '../../core/http';
import { DEVICE_CHANNELS, WATCH_RENEW_MS, type TrafficRelay, type WatchRequest } from '../../domain/deviceChannels';
import { addMember } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;
type Received = { code: number; msg?: string; type?: string; data?: unknown[] };

/** A console's end of the stream: every message in order, and the close. */
function openStream(base: string, query: Record<string, string>) {
  const ws = new WebSocket(`${base}/api/v1/router/traffic?${new URLSearchParams(query).toString()}`);
  const received: Received[] = [];
  const waiting: ((m: Received) => void)[] = [];
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as Received;
    const w = waiting.shift();
    if (w) w(m);
    else received.push(m);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('error', () => undefined);
  return {
    ws,
    closed,
    next: () => new Promise<Received>((resolve) => (received.length ? resolve(received.shift()!) : waiting.push(resolve))),
  };
}

/** Resolves with the first message on a channel that passes `test`. */
async function firstOn<T>(t: TestApp, channel: string, test: (m: T) => boolean): Promise<{ got: Promise<T>; stop: () => Promise<void> }> {
  let resolve!: (m: T) => void;
  const got = new Promise<T>((r) => (resolve = r));
  const stop = await t.ctx.pubsub.subscribe(channel, (m) => {
    if (test(m as T)) resolve(m as T);
  });
  return { got, stop };
}

/** ws://127.0.0.1:port of an app listening on a free port. */
async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${addr.port}`;
}

describeEachDatabase('router: the live traffic stream and /router/traffic', (t) => {
  let a: Main;
  let other: Main;
  let base: string;
  let router: string;
  let memberId: number;

  beforeAll(async () => {
    base = await listen(t());
    a = await newAccount(t());
    other = await newAccount(t());
    router = await addMember(t(), a.token, { router_type: 1, password: 'devsecret1' });
    const row = await t().db.selectFrom('member').select('id').where('tenant_id', '=', a.account.id).where('router_key', '=', router.toLowerCase()).executeTakeFirstOrThrow();
    memberId = row.id;
  });

  it('refuses a bad token with 2001 and closes', async () => {
    const s = openStream(base, { token: 'not-a-token', router_name: router });
    expect(await s.next()).toEqual({ code: CODE.tokenInvalid, msg: M.tokenInvalid });
    await s.closed;
  });

  it('refuses a missing token and an expired one', async () => {
    const missing = openStream(base, { router_name: router });
    expect(await missing.next()).toEqual({ code: CODE.tokenInvalid, msg: M.tokenMissing });
    await missing.closed;
    const expired = openStream(base, { token: await t().tokenExpiringIn(a.token, -5), router_name: router });
    expect(await expired.next()).toEqual({ code: CODE.tokenExpired, msg: M.tokenExpired });
    await expired.closed;
  });

  it("answers another tenant's member with 204 and closes", async () => {
    const s = openStream(base, { token: other.token, router_name: router });
    expect(await s.next()).toEqual({ code: CODE.notFound, msg: M.memberNotFound });
    await s.closed;
  });

  it('asks the gateway to relay at once and relays the member’s points until closed', async () => {
    const watch = await firstOn<WatchRequest>(t(), DEVICE_CHANNELS.watch, (m) => m.member_id === memberId);
    const s = openStream(base, { token: a.token, router_name: router });
    expect(await s.next()).toEqual({ code: CODE.ok, msg: 'success' });
    await watch.got;
    await watch.stop();

    const points = [{ interface: 'eth0', time: 1_700_000_000, down: 12.5, upload: 3.25 }];
    // A relay of another member on its own channel and a malformed one on this channel are not sent.
    await t().ctx.pubsub.publish(DEVICE_CHANNELS.traffic(memberId + 100_000), { member_id: memberId + 100_000, data: points });
    await t().ctx.pubsub.publish(DEVICE_CHANNELS.traffic(memberId), { member_id: memberId, data: 'nope' });
    await t().ctx.pubsub.publish(DEVICE_CHANNELS.traffic(memberId), { member_id: memberId, data: points } satisfies TrafficRelay);
    expect(await s.next()).toEqual({ code: CODE.ok, type: 'interface', data: points });

    s.ws.close();
    await s.closed;
  });

  describe('every renewal', () => {
    // Only the stream's renewal interval is faked; the database, the sockets and pub/sub run for real.
    afterEach(() => {
      vi.useRealTimers();
    });

    it('asks the gateway again, and ends the stream once the session is revoked (2001)', async () => {
      const login = await signIn(t(), a.username, a.password);
      const token = login.data!.access_token;
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const s = openStream(base, { token, router_name: router });
      expect(await s.next()).toEqual({ code: CODE.ok, msg: 'success' });

      const renewed = await firstOn<WatchRequest>(t(), DEVICE_CHANNELS.watch, (m) => m.member_id === memberId);
      vi.advanceTimersByTime(WATCH_RENEW_MS);
      await renewed.got;
      await renewed.stop();

      await t().db.updateTable('session').set({ revoked_at: Date.now() }).where('id', '=', decodeJwt(token).jti!).execute();
      vi.advanceTimersByTime(WATCH_RENEW_MS);
      expect(await s.next()).toEqual({ code: CODE.tokenInvalid, msg: M.tokenInvalid });
      await s.closed;
    });

    it('ends the stream once the member is deleted (204)', async () => {
      const gone = await addMember(t(), a.token, { router_type: 1, password: 'devsecret1' });
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const s = openStream(base, { token: a.token, router_name: gone });
      expect(await s.next()).toEqual({ code: CODE.ok, msg: 'success' });
      expect((await t().call(deleteRouter, { token: a.token, body: { router_name: gone } })).code).toBe(CODE.ok);
      vi.advanceTimersByTime(WATCH_RENEW_MS);
      expect(await s.next()).toEqual({ code: CODE.notFound, msg: M.memberNotFound });
      await s.closed;
    });
  });

  it('lets a sub-account with a read-only role watch', async () => {
    const token = await ramToken(t(), a.account.id, {
      'easylink.router': { create: 0, edit: 0, delete: 0 },
      'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    });
    const s = openStream(base, { token, router_name: router });
    expect(await s.next()).toEqual({ code: CODE.ok, msg: 'success' });
    s.ws.close();
    await s.closed;
  });

  it(`holds at most ${LIMITS.trafficStreamsPerTenant} streams per tenant`, async () => {
    const open = [];
    for (let i = 0; i < LIMITS.trafficStreamsPerTenant; i++) {
      const s = openStream(base, { token: a.token, router_name: router });
      expect((await s.next()).code).toBe(CODE.ok);
      open.push(s);
    }
    const extra = openStream(base, { token: a.token, router_name: router });
    expect(await extra.next()).toEqual({ code: CODE.tooMany, msg: M.tooManyRequests });
    await extra.closed;
    // Another tenant is not counted with this one.
    const mine = await addMember(t(), other.token, { router_type: 1, password: 'devsecret1' });
    const theirs = openStream(base, { token: other.token, router_name: mine });
    expect((await theirs.next()).code).toBe(CODE.ok);
    for (const s of [...open, theirs]) s.ws.close();
    await Promise.all([...open, theirs].map((s) => s.closed));
    // Closed streams give their places back.
    const again = openStream(base, { token: a.token, router_name: router });
    expect((await again.next()).code).toBe(CODE.ok);
    again.ws.close();
    await again.closed;
  });

  it('gives info with the interfaces, input and out the gateway wrote, and /router/traffic the totals', async () => {
    const interfaces = [
      { interface_uuid: 'u-1', interface: 'eth0', protocol: 'dhcp', ipv4: '192.168.1.2', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 },
      { interface_uuid: 'u-2', interface: 'ppp0', protocol: 'pppoe', ipv4: '', ipv4_subnet_mask: '', mtu: 1492 },
    ];
    await t()
      .db.updateTable('member')
      .set({ interfaces: JSON.stringify(interfaces), traffic_in: 5_000_000_000, traffic_out: 1234, online_status: 1 })
      .where('id', '=', memberId)
      .execute();
    const info = await t().call(routerInfo, { token: a.token, query: { router_name: router } });
    expect(info.data).toMatchObject({ interfaces, input: 5_000_000_000, out: 1234 });
    const traffic = await t().call(routerTraffic, { token: a.token, query: { router_name: router } });
    expect(traffic).toMatchObject({ code: 200, data: { online: 1, input: 5_000_000_000, out: 1234 } });
    expect(await t().call(routerTraffic, { token: other.token, query: { router_name: router } })).toMatchObject({ code: CODE.notFound });

    await t().db.updateTable('member').set({ interfaces: 'not json' }).where('id', '=', memberId).execute();
    expect((await t().call(routerInfo, { token: a.token, query: { router_name: router } })).data!.interfaces).toEqual([]);
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

// The console on one instance, the device's session on another: the watch and the points cross through Redis.
describe.skipIf(!databaseUrl || !redisUrl)('router: the traffic stream across two instances (needs TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let consoleSide: TestApp;
  let deviceSide: TestApp;
  beforeAll(async () => {
    shared = await sharedDatabase('postgres');
    const options = { config: { redisUrl }, backbone: { redisPrefix: `hublink-test:${randomBytes(6).toString('hex')}:` } };
    consoleSide = await createTestApp('postgres', { ...options, database: shared.open() });
    deviceSide = await createTestApp('postgres', { ...options, database: shared.open() });
  });
  afterAll(async () => {
    await consoleSide?.close();
    await deviceSide?.close();
    await shared?.drop();
  });

  it('relays points published where the device is to the console connected elsewhere', async () => {
    const a = await newAccount(consoleSide);
    const router = await addMember(consoleSide, a.token, { router_type: 1, password: 'devsecret1' });
    const { id } = await consoleSide.db.selectFrom('member').select('id').where('router_key', '=', router.toLowerCase()).executeTakeFirstOrThrow();
    const watch = await firstOn<WatchRequest>(deviceSide, DEVICE_CHANNELS.watch, (m) => m.member_id === id);
    const s = openStream(await listen(consoleSide), { token: a.token, router_name: router });
    expect(await s.next()).toEqual({ code: CODE.ok, msg: 'success' });
    await watch.got;
    await watch.stop();
    const points = [{ interface: 'wan', time: 1_700_000_100, down: 50, upload: 5 }];
    await deviceSide.ctx.pubsub.publish(DEVICE_CHANNELS.traffic(id), { member_id: id, data: points } satisfies TrafficRelay);
    expect(await s.next()).toEqual({ code: CODE.ok, type: 'interface', data: points });
    s.ws.close();
    await s.closed;
  });
});

describe('router: the stream token in logs', () => {
  it('masks the token of a logged URL and keeps the rest', () => {
    expect(urlForLog('/api/v1/router/traffic?token=eyJ.abc.def&router_name=gw1')).toBe('/api/v1/router/traffic?token=[redacted]&router_name=gw1');
    expect(urlForLog('/api/v1/router/traffic?router_name=gw1&TOKEN=x')).toBe('/api/v1/router/traffic?router_name=gw1&TOKEN=[redacted]');
    expect(urlForLog('/api/v1/auth_source/callback?code=abc&state=def&appid=w1')).toBe('/api/v1/auth_source/callback?code=[redacted]&state=[redacted]&appid=w1');
    expect(urlForLog('/validate/email?s=tok&sid=1')).toBe('/validate/email?s=[redacted]&sid=1');
    expect(urlForLog('/api/v1/router/info?router_name=tokens')).toBe('/api/v1/router/info?router_name=tokens');
  });
});
