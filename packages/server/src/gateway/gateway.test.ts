import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CLOSE, ROUTER_TYPE, addNetworkMember, deleteRouter, killUser, networkStatus, removeNetworkMember, resendConfig, routerPassword, updateRouterStatus, setDns } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';
import { gatewayOf } from '.';
import { DEVICE_AUTH_LIMITS } from './auth';
import { INSTANCE_STALE_MS, endSessions, sweepSessions } from './sessionRows';

describeEachDatabase('device gateway', (t) => {
  let base: string;
  let a: Awaited<ReturnType<typeof newAccount>>;
  let center = '';
  let point = '';
  let networkNumber: string;
  const open: TestDevice[] = [];

  const connect = async () => {
    const d = await TestDevice.open(base);
    open.push(d);
    return d;
  };
  const rowsOf = (name: string) => t().db.selectFrom('connect_log').selectAll().where('router_name', '=', name).orderBy('id').execute();
  const noSessions = () => until(async () => (await t().db.selectFrom('device_session').select('id').execute()).length === 0, 'every session ended');
  const memberRow = (name: string) => t().db.selectFrom('member').selectAll().where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow();
  /** The payloads of the events of one type about one member, oldest first. */
  const eventsOf = async (type: string, memberId: number) =>
    (await t().db.selectFrom('event').select('payload').where('type', '=', type).orderBy('id').execute())
      .map((r) => JSON.parse(r.payload) as { member_id: number; at: number })
      .filter((e) => e.member_id === memberId);

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    a = await newAccount(t());
    [center = '', point = ''] = await seedFreshMembers(t(), a.account.id, 2);
    networkNumber = await createNetworkThroughApi(t(), a.token, { center: [center!], point: [point!] });
    await t().ctx.events.settle();
    return async () => {
      for (const d of open) d.close();
    };
  });

  it('welcomes a router that proves its secret: credential, configs with certificates, online, connect log', async () => {
    const d = await connect();
    d.send(routerHello(center, SEEDED_MEMBER_SECRET, { router_model: 'HL-100' }));
    const w = await d.next('welcome');
    expect(w.credential).toMatch(/^[\w-]{40,}$/);
    expect(w.member).toEqual({ router_name: center, router_type: ROUTER_TYPE.hardware });
    expect(w.networks).toEqual([networkNumber]);
    expect(w.configs).toHaveLength(1);
    const cfg = w.configs[0]!;
    expect(cfg.network_number).toBe(networkNumber);
    expect(cfg.config.member_type).toBe('center');
    expect(Object.keys(cfg.openvpn).some((f) => f.endsWith('.conf'))).toBe(true);
    expect(cfg.certificates?.['ca.crt']).toContain('BEGIN CERTIFICATE');
    expect(cfg.certificates?.['member.key']).toContain('PRIVATE KEY');
    expect(cfg.certificates?.['crl.pem']).toContain('BEGIN X509 CRL');

    const m = await memberRow(center);
    expect(m.online_status).toBe(1);
    expect(m.version).toBe('1.2.3');
    expect(m.router_model).toBe('HL-100');
    expect(JSON.parse(m.interfaces)).toEqual([expect.objectContaining({ interface: 'wan', ipv4: '192.0.2.10' })]);
    const rows = await rowsOf(center);
    expect(rows).toEqual([expect.objectContaining({ online: 1, remote_ip: '127.0.0.1', version: '1.2.3', session_id: w.session_id })]);
    // Only a hash of the credential is kept.
    const creds = await t().db.selectFrom('device_credential').selectAll().where('member_id', '=', m.id).execute();
    expect(creds.map((c) => c.token_hash)).not.toContain(w.credential);

    d.close();
    await until(async () => (await rowsOf(center)).length === 2, 'the end of the session logged');
    expect((await rowsOf(center))[1]).toMatchObject({ online: 0, session_id: w.session_id });
    expect((await memberRow(center)).online_status).toBe(0);
  });

  it('announces a new address only of a center (its points dial it), not of a point', async () => {
    const changes = async (name: string) => (await eventsOf('member.changed', (await memberRow(name)).id)).length;
    const before = { center: await changes(center), point: await changes(point) };
    for (const [name, address] of [
      [center, '198.51.100.31'],
      [point, '198.51.100.32'],
    ] as const) {
      const d = await connect();
      d.send(routerHello(name, SEEDED_MEMBER_SECRET, { router_ipv4: address }));
      await d.next('welcome');
      expect((await memberRow(name)).router_ipv4).toBe(address);
      d.close();
      await d.closedWith();
    }
    expect(await changes(center)).toBe(before.center + 1);
    expect(await changes(point)).toBe(before.point);
    await noSessions();
  });

  it('takes the credential instead of the secret, and skips configs the device already holds', async () => {
    const first = await connect();
    first.send(routerHello(point, SEEDED_MEMBER_SECRET));
    const w1 = await first.next('welcome');
    first.close();
    await first.closedWith();

    const again = await connect();
    again.send(routerHello(point, '', { secret: undefined, credential: w1.credential, configs: [{ network_number: networkNumber, version: w1.configs[0]!.version }] }));
    const w2 = await again.next('welcome');
    expect(w2.credential).toBeUndefined();
    expect(w2.configs).toEqual([]);
    expect(w2.networks).toEqual([networkNumber]);
    again.close();
  });

  it('refuses a wrong secret, an unknown router and a forged credential, writing nothing', async () => {
    await noSessions();
    const before = await t().db.selectFrom('connect_log').select('id').execute();
    for (const hello of [routerHello(center, 'wrong-secret'), routerHello('nosuchrouter', SEEDED_MEMBER_SECRET), routerHello(center, '', { secret: undefined, credential: 'forged' })]) {
      const d = await connect();
      d.send(hello);
      expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.authFailed);
      expect(d.received.at(-1)).toMatchObject({ type: 'error', code: DEVICE_CLOSE.authFailed });
    }
    expect(await t().db.selectFrom('connect_log').select('id').execute()).toEqual(before);
  });

  it('stops answering secret sign-ins for a member after repeated failures, while its credential still works', async () => {
    const [victim = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const first = await connect();
    first.send(routerHello(victim, SEEDED_MEMBER_SECRET));
    const { credential } = await first.next('welcome');
    first.close();
    await first.closedWith();
    for (let i = 0; i < DEVICE_AUTH_LIMITS.perMember.max; i++) {
      const d = await connect();
      d.send(routerHello(victim, `guess-${i}`));
      expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.authFailed);
    }
    const d = await connect();
    d.send(routerHello(victim, SEEDED_MEMBER_SECRET));
    expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.tooManyAttempts);
    // 256 random bits cannot be guessed: the device that holds its credential comes back regardless.
    const back = await connect();
    back.send(routerHello(victim, '', { secret: undefined, credential }));
    await back.next('welcome');
    back.close();
  });

  it('closes a socket that sends something other than JSON, or a status before its hello', async () => {
    const d1 = await connect();
    d1.socket.send('not json');
    expect((await d1.closedWith()).code).toBe(DEVICE_CLOSE.protocolError);
    const d2 = await connect();
    d2.send({ type: 'status', links: [] });
    expect((await d2.closedWith()).code).toBe(DEVICE_CLOSE.helloExpected);
  });

  it('pushes a new config version when a setting changes, and the device says it applied it', async () => {
    const d = await connect();
    d.send(routerHello(point, SEEDED_MEMBER_SECRET));
    const w = await d.next('welcome');
    const before = w.configs[0]!.version;
    const res = await t().call(setDns, { token: a.token, body: { network_number: networkNumber, dns: ['223.5.5.5'] } });
    expect(res.code).toBe(200);
    const pushed = await d.next('config', (c) => c.version > before);
    expect(pushed.config.dns).toEqual(['223.5.5.5']);
    d.send({ type: 'applied', network_number: networkNumber, version: pushed.version, ok: true });
    const pointId = (await memberRow(point)).id;
    await until(async () => (await t().db.selectFrom('member_config').select('applied_version').where('member_id', '=', pointId).executeTakeFirst())?.applied_version === pushed.version, 'applied version stored');
    d.close();
  });

  it('delivers a queued command, takes its ack, and resends a config on re_send_config', async () => {
    const d = await connect();
    d.send(routerHello(point, SEEDED_MEMBER_SECRET));
    await d.next('welcome');
    expect((await t().call(killUser, { token: a.token, body: { network_number: networkNumber, router_name: point } })).code).toBe(200);
    const cmd = await d.next('command', (c) => c.kind === 'kill');
    expect(cmd.network_number).toBe(networkNumber);
    const state = () => t().db.selectFrom('member_command').select(['state', 'error']).where('id', '=', cmd.command_id).executeTakeFirstOrThrow();
    await until(async () => (await state()).state === 'sent', 'command marked sent');
    d.send({ type: 'ack', command_id: cmd.command_id, ok: false, error: 'tunnel busy' });
    await until(async () => (await state()).state === 'failed', 'ack stored');
    expect((await state()).error).toBe('tunnel busy');
    // The console's status poll shows it.
    const polled = await t().call(networkStatus, { token: a.token, query: { network_number: networkNumber } });
    expect(polled.data!.device[point]).toMatchObject({ command: { kind: 'kill', state: 'failed', error: 'tunnel busy' } });
    expect(polled.data!.device[point]!.config_version).toBeGreaterThan(0);

    const configsBefore = d.received.filter((m) => m.type === 'config').length;
    expect((await t().call(resendConfig, { token: a.token, body: { network_number: networkNumber, router_name: point } })).code).toBe(200);
    await d.next('command', (c) => c.kind === 'resend_config');
    expect(d.received.filter((m) => m.type === 'config').length).toBe(configsBefore + 1);
    d.close();
  });

  it('delivers the commands queued while the device was away when it comes back', async () => {
    const pointId = (await memberRow(point)).id;
    const net = await t().db.selectFrom('network').select('id').where('network_number', '=', networkNumber).executeTakeFirstOrThrow();
    const now = Date.now();
    const row = await t()
      .db.insertInto('member_command')
      .values({ tenant_id: a.account.id, network_id: net.id, member_id: pointId, kind: 'restart', create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const d = await connect();
    d.send(routerHello(point, SEEDED_MEMBER_SECRET));
    const cmd = await d.next('command', (c) => c.command_id === row.id);
    expect(cmd.kind).toBe('restart');
    d.send({ type: 'ack', command_id: cmd.command_id, ok: true });
    await until(async () => (await t().db.selectFrom('member_command').select('state').where('id', '=', row.id).executeTakeFirstOrThrow()).state === 'done', 'done');
    d.close();
  });

  it("writes a point's links in batches, and its p2p sessions to the online log", async () => {
    const d = await connect();
    d.send(routerHello(point, SEEDED_MEMBER_SECRET));
    const w = await d.next('welcome');
    const since = Math.floor(Date.now() / 1000) - 5;
    d.send({ type: 'status', links: [{ network_number: networkNumber, peer: center, vpn_ip: '10.8.0.6', online: 1, since }] });
    d.send({ type: 'session', event: 'up', id: 's1', mode: 'p2p', network_number: networkNumber, link_router_name: center, orig: '192.0.2.10:1194', vpn_ip: '10.8.0.6', time: since });
    d.send({ type: 'ping' });
    await d.next('pong');
    const ids = { point: (await memberRow(point)).id, center: (await memberRow(center)).id };
    const link = () => t().db.selectFrom('member_link').selectAll().where('member_id', '=', ids.point).where('center_member_id', '=', ids.center).executeTakeFirst();
    await until(async () => (await link())?.vpn_online === 1, 'the link written');
    expect(await link()).toMatchObject({ vpn_ip: '10.8.0.6' });
    const log = () => t().db.selectFrom('online_log').selectAll().where('session_id', '=', w.session_id).execute();
    await expect.poll(log, { timeout: 10_000 }).toEqual([expect.objectContaining({ mode: 'p2p', link_router_name: center, vpn_ip: '10.8.0.6', start_time: since * 1000, end_time: null })]);

    // The session ending ends what was open: its online-log row, its links.
    d.close();
    await until(async () => (await log())[0]?.end_time !== null, 'the online log closed');
    expect((await link())?.vpn_online).toBe(0);
  });

  it('announces a member online at its first session, offline after its last, and each POP session it reports', async () => {
    const [fresh = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const id = (await memberRow(fresh)).id;
    const first = await connect();
    first.send(routerHello(fresh, SEEDED_MEMBER_SECRET));
    await first.next('welcome');
    expect(await eventsOf('member.online', id)).toEqual([expect.objectContaining({ tenant_id: a.account.id, member_id: id })]);
    const since = Math.floor(Date.now() / 1000);
    first.send({ type: 'session', event: 'up', id: 'p1', mode: 'pop', pop_name: 'pop-sh', area: '上海', orig: '192.0.2.10:1194', vpn_ip: '10.9.0.6', time: since });
    first.send({ type: 'session', event: 'up', id: 'x1', mode: 'p2p', network_number: networkNumber, link_router_name: center, orig: '192.0.2.10:1194', vpn_ip: '10.8.0.6', time: since });
    first.send({ type: 'ping' });
    await first.next('pong');
    // Session reports are written with others' soon after (not before the pong).
    await expect.poll(() => eventsOf('pop.connected', id), { timeout: 10_000 }).toEqual([{ tenant_id: a.account.id, member_id: id, pop_name: 'pop-sh', area: '上海', at: since * 1000 }]);
    expect(await eventsOf('member.offline', id)).toEqual([]);
    first.close();
    await until(async () => (await eventsOf('member.offline', id)).length === 1, 'offline announced');
    expect((await eventsOf('member.offline', id))[0]!.at).toBeGreaterThanOrEqual(since * 1000);
    expect(await eventsOf('member.online', id)).toHaveLength(1);
  });

  it('sends a joining point its config and the center a new CRL when a point leaves', async () => {
    const [extra = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const c = await connect();
    c.send(routerHello(center, SEEDED_MEMBER_SECRET));
    const w = await c.next('welcome');
    const crlBefore = w.configs[0]!.certificates?.['crl.pem'];
    const x = await connect();
    x.send(routerHello(extra, SEEDED_MEMBER_SECRET));
    const wx = await x.next('welcome');
    expect(wx.configs).toEqual([]);
    expect(wx.networks).toEqual([]);

    expect((await t().call(addNetworkMember, { token: a.token, body: { network_number: networkNumber, router_name: extra, member_type: 'point' } })).code).toBe(200);
    const joined = await x.next('config');
    expect(joined.network_number).toBe(networkNumber);
    expect(joined.certificates?.['member.crt']).toContain('BEGIN CERTIFICATE');

    expect((await t().call(removeNetworkMember, { token: a.token, body: { network_number: networkNumber, router_name: extra } })).code).toBe(200);
    await x.next('leave');
    await c.next('config', (m) => m.certificates?.['crl.pem'] !== undefined && m.certificates['crl.pem'] !== crlBefore);
    c.close();
    x.close();
  });

  it("writes a device's first byte counters at once, later ones with the minute's batch", async () => {
    const [fresh = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const d = await connect();
    d.send(routerHello(fresh, SEEDED_MEMBER_SECRET));
    await d.next('welcome');
    d.send({ type: 'traffic', data: [{ interface: 'wan', time: Math.floor(Date.now() / 1000), down: 1, upload: 2 }], rx_bytes: 4096, tx_bytes: 1024 });
    await until(async () => Number((await memberRow(fresh)).traffic_in) === 4096, 'the first counters written');
    expect(Number((await memberRow(fresh)).traffic_out)).toBe(1024);
    d.close();
  });

  it('closes the session of a deleted member at once, its credentials gone with it', async () => {
    const [doomed = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const d = await connect();
    d.send(routerHello(doomed, SEEDED_MEMBER_SECRET));
    const w = await d.next('welcome');
    expect((await t().call(deleteRouter, { token: a.token, body: { router_name: doomed } })).code).toBe(200);
    expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    const again = await connect();
    again.send(routerHello(doomed, '', { secret: undefined, credential: w.credential }));
    expect((await again.closedWith()).code).toBe(DEVICE_CLOSE.authFailed);
    await until(async () => (await rowsOf(doomed)).length === 2, 'the session of the deleted member ended in the log');
  });

  it('closes with 1011 a session whose welcome cannot be made (a key sealed under another key), and ends it', async () => {
    const [c = '', p = ''] = await seedFreshMembers(t(), a.account.id, 2);
    await createNetworkThroughApi(t(), a.token, { center: [c], point: [p] });
    await t().ctx.events.settle();
    const member = await memberRow(p);
    await t().db.updateTable('member_certificate').set({ key_sealed: 'sealed-elsewhere' }).where('member_id', '=', member.id).execute();
    const d = await connect();
    d.send(routerHello(p, SEEDED_MEMBER_SECRET));
    expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.serverError);
    expect(gatewayOf(t().ctx).sessionOf(member.id)).toBeUndefined();
    await until(async () => (await t().db.selectFrom('device_session').select('id').where('member_id', '=', member.id).execute()).length === 0, 'the session ended');
    expect((await memberRow(p)).online_status).toBe(0);
  });

  it('closes a session that sends nothing for the heartbeat timeout, and the member goes offline', async () => {
    const [quiet = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const d = await connect();
    d.send(routerHello(quiet, SEEDED_MEMBER_SECRET));
    await d.next('welcome');
    const session = gatewayOf(t().ctx).sessionOf((await memberRow(quiet)).id)!;
    // As if its last message were 31 s old: the next check (every 5 s) closes it.
    session.lastSeen = Date.now() - 31_000;
    expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.heartbeatTimeout);
    await until(async () => (await memberRow(quiet)).online_status === 0, 'offline after the timeout');
  });

  it('closes the older session when the same member signs in again', async () => {
    const first = await connect();
    first.send(routerHello(center, SEEDED_MEMBER_SECRET));
    await first.next('welcome');
    const second = await connect();
    second.send(routerHello(center, SEEDED_MEMBER_SECRET));
    await second.next('welcome');
    expect((await first.closedWith()).code).toBe(DEVICE_CLOSE.replaced);
    await until(async () => (await memberRow(center)).online_status === 1 && gatewayOf(t().ctx).size >= 1, 'still online with the new session');
    second.close();
    await until(async () => (await memberRow(center)).online_status === 0, 'offline after the last session');
  });

  describe('software members', () => {
    let app = '';
    let login: string;
    beforeAll(async () => {
      [app = ''] = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
      const acc = await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow();
      login = `${app}@${acc.sign}`;
    });
    const appHello = (secret: string | undefined, credential?: string) => ({
      type: 'hello',
      protocol: 1,
      kind: 'app',
      login,
      ...(secret ? { secret } : {}),
      ...(credential ? { credential } : {}),
      os: 'android',
      version: '3.1.0',
      sys_brand: 'Xiaomi',
      sys_model: '14',
      sys_version: '15',
    });

    it('signs in with username@sign, records the login, and is cut off at once when its password changes', async () => {
      const d = await connect();
      d.send(appHello(SEEDED_MEMBER_SECRET));
      const w = await d.next('welcome');
      const logins = await t().db.selectFrom('software_login').selectAll().where('router_name', '=', app).execute();
      expect(logins).toEqual([expect.objectContaining({ ip: '127.0.0.1', os: 'android', version: '3.1.0', sys_brand: 'Xiaomi', sys_model: '14', sys_version: '15' })]);

      expect((await t().call(routerPassword, { token: a.token, body: { router_name: app, password: 'newpass123' } })).code).toBe(200);
      expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
      // The old credential and the old password are both refused; the new password works.
      const withCredential = await connect();
      withCredential.send(appHello(undefined, w.credential));
      expect((await withCredential.closedWith()).code).toBe(DEVICE_CLOSE.authFailed);
      const withNew = await connect();
      withNew.send(appHello('newpass123'));
      await withNew.next('welcome');
      withNew.close();
    });

    it('refuses a disabled member, and closes its session when it is disabled', async () => {
      const d = await connect();
      d.send(appHello('newpass123'));
      await d.next('welcome');
      expect((await t().call(updateRouterStatus, { token: a.token, body: { router_name: app } })).code).toBe(200);
      expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.disabled);
      const again = await connect();
      again.send(appHello('newpass123'));
      expect((await again.closedWith()).code).toBe(DEVICE_CLOSE.disabled);
      expect((await t().call(updateRouterStatus, { token: a.token, body: { router_name: app } })).code).toBe(200);
    });
  });

  it('ends the sessions of an instance that stopped beating, once, dated at its last beat', async () => {
    const m = await memberRow(center);
    const lastBeat = Date.now() - INSTANCE_STALE_MS - 5_000;
    await t().db.insertInto('gateway_instance').values({ instance: 'dead-instance', seen_time: lastBeat }).execute();
    await t()
      .db.insertInto('device_session')
      .values({ id: 'dead-session-1', tenant_id: a.account.id, member_id: m.id, router_name: center, instance: 'dead-instance', start_time: lastBeat - 60_000 })
      .execute();
    await t().db.updateTable('member').set({ online_status: 1 }).where('id', '=', m.id).execute();
    expect(await sweepSessions(t().ctx, Date.now())).toBe(1);
    expect(await sweepSessions(t().ctx, Date.now())).toBe(0);
    const ends = await t().db.selectFrom('connect_log').selectAll().where('session_id', '=', 'dead-session-1').execute();
    expect(ends).toEqual([expect.objectContaining({ online: 0, create_time: lastBeat })]);
    expect((await memberRow(center)).online_status).toBe(0);
  });

  it('ends many sessions in one go, once each, leaving a member online while another session of it is open', async () => {
    const [m1 = '', m2 = ''] = await seedFreshMembers(t(), a.account.id, 2, { online_status: 1 });
    const ids = { m1: (await memberRow(m1)).id, m2: (await memberRow(m2)).id };
    const now = Date.now();
    const row = (id: string, member: string, member_id: number) => ({ id, tenant_id: a.account.id, member_id, router_name: member, instance: 'batch-test', start_time: now - 1000 });
    await t().db.insertInto('device_session').values([row('b-1', m1, ids.m1), row('b-2', m1, ids.m1), row('b-3', m2, ids.m2)]).execute();
    expect((await endSessions(t().ctx, [{ id: 'b-1', at: now }, { id: 'b-3', at: now + 1 }, { id: 'no-such', at: now }])).sort()).toEqual(['b-1', 'b-3']);
    expect(await endSessions(t().ctx, [{ id: 'b-1', at: now }, { id: 'b-3', at: now }])).toEqual([]);
    const ends = await t().db.selectFrom('connect_log').select(['session_id', 'create_time']).where('session_id', 'in', ['b-1', 'b-2', 'b-3']).orderBy('session_id').execute();
    expect(ends).toEqual([
      { session_id: 'b-1', create_time: now },
      { session_id: 'b-3', create_time: now + 1 },
    ]);
    expect((await memberRow(m1)).online_status).toBe(1);
    expect((await memberRow(m2)).online_status).toBe(0);
    expect(await eventsOf('member.offline', ids.m1)).toEqual([]);
    expect(await eventsOf('member.offline', ids.m2)).toEqual([{ tenant_id: a.account.id, member_id: ids.m2, at: now + 1 }]);
    await endSessions(t().ctx, [{ id: 'b-2', at: now + 2 }]);
    expect((await memberRow(m1)).online_status).toBe(0);
    expect(await eventsOf('member.offline', ids.m1)).toEqual([{ tenant_id: a.account.id, member_id: ids.m1, at: now + 2 }]);
  });
});
