import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { ROUTER_TYPE } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';
import { issueDeviceCredential } from '../domain/deviceCredentials';

/**
 * The online log from the sessions devices report (issue 30): each session's own bytes at its end, and a
 * standard client's session (a software member with no agent signed in) written as the member's row from
 * its center's report, with the bytes turned round; a member whose agent reports itself gets no second row.
 */
describeEachDatabase('device gateway: the online log of reported sessions', (t) => {
  const eventsOf = async (type: string, memberId: number) =>
    (await t().db.selectFrom('event').select('payload').where('type', '=', type).orderBy('id').execute()).map((r) => JSON.parse(r.payload) as { member_id: number }).filter((e) => e.member_id === memberId);
  const onlineOf = async (name: string) => (await t().db.selectFrom('member').select('online_status').where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).online_status;

  // A device of protocol 3 sends its reports in batches (`sessions`): the log comes out the same.
  it.each(['session', 'sessions'] as const)("keeps each session's bytes, and writes a standard client's session as its member's, online while it lasts (%s messages)", async (kind) => {
    if (!t().app.server.listening) await t().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const a = await newAccount(t());
    const [center = '', point = ''] = await seedFreshMembers(t(), a.account.id, 2);
    const [stock = '', agented = ''] = await seedFreshMembers(t(), a.account.id, 2, { router_type: ROUTER_TYPE.software });
    const networkNumber = await createNetworkThroughApi(t(), a.token, { center: [center], point: [point, stock, agented] });
    await t().ctx.events.settle();
    const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
    // The member that runs the agent is signed in (its own session reports its tunnel).
    const agentedId = (await t().db.selectFrom('member').select('id').where('router_key', '=', agented.toLowerCase()).executeTakeFirstOrThrow()).id;
    await t().db.insertInto('device_session').values({ id: randomUUID(), tenant_id: a.account.id, member_id: agentedId, router_name: agented, instance: 'elsewhere', remote_ip: '192.0.2.50', remote_port: 40000, version: '2.0.0', start_time: Date.now() }).execute();

    const c = await TestDevice.open(base);
    c.send(routerHello(center, SEEDED_MEMBER_SECRET));
    const w = await c.next('welcome');
    const since = Math.floor(Date.now() / 1000) - 60;
    let batch: object[] = [];
    const session = (event: 'up' | 'down', id: string, peer: string, extra: object = {}, device = c) => {
      const report = { event, id, mode: 'p2p', network_number: networkNumber, link_router_name: peer, orig: '198.51.100.7:41000', vpn_ip: '10.8.0.9', time: since, ...extra };
      if (kind === 'session') device.send({ type: 'session', ...report });
      else batch.push(report);
    };
    /** A ping after the reports (a batch goes first); their rows are written soon after (messages.ts: with other sessions' reports). */
    const ping = (device = c) => {
      if (batch.length > 0) device.send({ type: 'sessions', sessions: batch });
      batch = [];
      device.send({ type: 'ping' });
    };
    // The standard client asked to connect first (what it said of itself goes to the login log).
    const serial = async (name: string) => {
      const row = await t().db.selectFrom('member_certificate as c').innerJoin('member as m', 'm.id', 'c.member_id').select('c.serial').where('m.router_key', '=', name.toLowerCase()).where('c.revoked_at', 'is', null).orderBy('c.id', 'desc').executeTakeFirstOrThrow();
      return BigInt(`0x${row.serial}`).toString();
    };
    const admit = async (id: string) => {
      c.send({ type: 'client_auth', id, network_number: networkNumber, common_name: stock, serial: await serial(stock), username: `${stock}@${sign}`, password: SEEDED_MEMBER_SECRET, orig: '198.51.100.7:41000', platform: 'ios', client_version: '3.4.1' });
      expect((await c.next('client_auth_result', (r) => r.id === id)).verdict).toBe('accept');
    };
    await admit('q1');
    // The agent's own client is admitted with its device credential: its sessions are its agent's to report.
    const credential = await issueDeviceCredential(t().ctx, { id: agentedId, tenant_id: a.account.id });
    c.send({ type: 'client_auth', id: 'qa', network_number: networkNumber, common_name: agented, serial: await serial(agented), username: `${agented}@${sign}`, password: credential, orig: '198.51.100.8:41000', platform: 'linux', client_version: '2.6.14' });
    expect((await c.next('client_auth_result', (r) => r.id === 'qa')).verdict).toBe('accept');
    for (const [id, peer] of [['k1', point], ['k2', stock], ['k3', agented]] as const) session('up', id, peer);
    ping();
    await c.next('pong');
    const rows = () => t().db.selectFrom('online_log').selectAll().where('tenant_id', '=', a.account.id).orderBy('router_name').orderBy('link_router_name').execute();
    const sorted = <T extends { router_name: string; peer: string }>(xs: T[]) => [...xs].sort((x, y) => (x.router_name + x.peer < y.router_name + y.peer ? -1 : 1));
    const shape = async () => sorted((await rows()).map((r) => ({ router_name: r.router_name, peer: r.link_router_name, ended: r.end_time !== null, bytes_in: r.bytes_in === null ? null : Number(r.bytes_in), bytes_out: r.bytes_out === null ? null : Number(r.bytes_out) })));

    await expect.poll(shape, { timeout: 10_000 }).toEqual(
      sorted([
        { router_name: center, peer: point, ended: false, bytes_in: null, bytes_out: null },
        { router_name: center, peer: stock, ended: false, bytes_in: null, bytes_out: null },
        { router_name: center, peer: agented, ended: false, bytes_in: null, bytes_out: null },
        { router_name: stock, peer: center, ended: false, bytes_in: null, bytes_out: null },
      ]),
    );

    // The center received 7,000 bytes from the standard client and sent it 90,000: the member downloaded 90,000.
    session('down', 'k2', stock, { bytes_received: 7000, bytes_sent: 90000 });
    session('down', 'k1', point);
    ping();
    await c.next('pong');
    await until(async () => (await rows()).filter((r) => r.end_time !== null).length === 3, 'three rows ended');
    await expect.poll(shape, { timeout: 10_000 }).toEqual(
      sorted([
        { router_name: center, peer: point, ended: true, bytes_in: null, bytes_out: null },
        { router_name: center, peer: stock, ended: true, bytes_in: 7000, bytes_out: 90000 },
        { router_name: center, peer: agented, ended: false, bytes_in: null, bytes_out: null },
        { router_name: stock, peer: center, ended: true, bytes_in: 90000, bytes_out: 7000 },
      ]),
    );
    expect((await rows()).every((r) => r.session_id === w.session_id)).toBe(true);
    // Online while its standard client was connected, offline when it left.
    const stockId = (await t().db.selectFrom('member').select('id').where('router_key', '=', stock.toLowerCase()).executeTakeFirstOrThrow()).id;
    expect((await eventsOf('member.online', stockId)).length).toBe(1);
    expect((await eventsOf('member.offline', stockId)).length).toBe(1);
    expect(await onlineOf(stock)).toBe(0);
    // Its sign-in and its connection, as the member's: nothing for the others, who have their own sessions.
    const logins = await t().db.selectFrom('software_login').select(['router_name', 'ip', 'os', 'version']).where('tenant_id', '=', a.account.id).execute();
    expect(logins).toEqual([{ router_name: stock, ip: '198.51.100.7', os: 'ios', version: '3.4.1' }]);
    const connects = await t().db.selectFrom('connect_log').select(['router_name', 'online', 'remote_ip', 'remote_port']).where('tenant_id', '=', a.account.id).where('router_name', '!=', center).orderBy('id').execute();
    expect(connects).toEqual([
      { router_name: stock, online: 1, remote_ip: '198.51.100.7', remote_port: 41000 },
      { router_name: stock, online: 0, remote_ip: '198.51.100.7', remote_port: 41000 },
    ]);

    // Connected again; the center's own session ends (its device went away): the client's session ends with it.
    await admit('q2');
    session('up', 'k4', stock);
    const pongs = c.received.filter((x) => x.type === 'pong').length;
    ping();
    await until(() => c.received.filter((x) => x.type === 'pong').length > pongs, 'the session handled');
    await expect.poll(() => onlineOf(stock), { timeout: 10_000 }).toBe(1);
    c.close();
    await until(async () => (await onlineOf(stock)) === 0, "the member offline with its center's session");
    expect((await eventsOf('member.offline', stockId)).length).toBe(2);
    const ends = await t().db.selectFrom('connect_log').select('online').where('router_name', '=', stock).orderBy('id').execute();
    expect(ends.map((e) => e.online)).toEqual([1, 0, 1, 0]);
    expect((await rows()).filter((r) => r.end_time === null)).toEqual([]);

    // The center signs in again and resends its open sessions: the client's is the member's again, without a new sign-in.
    const again = await TestDevice.open(base);
    again.send(routerHello(center, SEEDED_MEMBER_SECRET));
    await again.next('welcome');
    session('up', 'k4', stock, {}, again);
    ping(again);
    await again.next('pong');
    await expect.poll(() => onlineOf(stock), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await rows()).filter((r) => r.end_time === null).map((r) => r.router_name).sort(), { timeout: 10_000 }).toEqual([center, stock].sort());
    expect(await t().db.selectFrom('software_login').select('id').where('router_name', '=', stock).execute()).toHaveLength(2);
    again.close();
  });
});
