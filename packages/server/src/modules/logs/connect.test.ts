import { connectLog, exportLogs, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { formatTime, startOfDay } from '../../core/time';
import { connection, HOUR, onlineSession } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

describeEachDatabase('GET /logs/connect', (t) => {
  let a: Main;
  let tz: string;
  const day = (date: string, hours = 12) => startOfDay(date, tz) + hours * HOUR;
  const names = async (query: Record<string, unknown>, token = a.token) => (await t().call(connectLog, { token, query })).data!.map((r) => `${r.router_name}:${r.online}`);

  beforeAll(async () => {
    a = await newAccount(t());
    tz = t().ctx.config.timezone;
    await connection(t(), a.account.id, 'gw_office', day('2025-05-01'), 1, { remote_ip: '198.51.100.1', remote_port: 51000, version: '3.0.9' });
    await connection(t(), a.account.id, 'gw_office', day('2025-05-01', 13), 0);
    await connection(t(), a.account.id, 'laptop_li', day('2025-05-02', 0), 1);
    await connection(t(), a.account.id, 'laptop_li', day('2025-05-03', 23.99), 0);
    const other = await newAccount(t());
    await connection(t(), other.account.id, 'gw_office', day('2025-05-02'), 1);
  });

  it("lists the tenant's connections newest first, with their fields and time", async () => {
    const res = await t().call(connectLog, { token: a.token });
    expect(res).toMatchObject({ code: 200, count: 4 });
    expect(res.data!.map((r) => `${r.router_name}:${r.online}`)).toEqual(['laptop_li:0', 'laptop_li:1', 'gw_office:0', 'gw_office:1']);
    expect(res.data![3]).toEqual({ router_name: 'gw_office', remote_ip: '198.51.100.1', remote_port: 51000, version: '3.0.9', online: 1, create_time: formatTime(day('2025-05-01'), tz) });
  });

  it("searches by the member's name only and filters by whole days, both ends included", async () => {
    expect(await names({ search: 'laptop' })).toEqual(['laptop_li:0', 'laptop_li:1']);
    expect(await names({ search: '198.51' })).toEqual([]);
    expect(await names({ start_time: '2025-05-02', end_time: '2025-05-03' })).toEqual(['laptop_li:0', 'laptop_li:1']);
    expect(await names({ start_time: '2025-05-01', end_time: '2025-05-01' })).toEqual(['gw_office:0', 'gw_office:1']);
    expect(await names({ end_time: '2025-04-30' })).toEqual([]);
  });

  it('pages by limit; a page past the end is empty with the total', async () => {
    const second = await t().call(connectLog, { token: a.token, query: { limit: 3, page: 2 } });
    expect(second).toMatchObject({ count: 4 });
    expect(second.data!.map((r) => r.router_name)).toEqual(['gw_office']);
    const past = await t().call(connectLog, { token: a.token, query: { page: 2 } });
    expect(past).toMatchObject({ code: 200, count: 4, data: [] });
  });

  it('refuses malformed input with the first rule’s message', async () => {
    expect(await t().call(connectLog, { token: a.token, query: { start_time: '2025/05/01' } })).toMatchObject({ code: 422, msg: M.logDateInvalid });
    expect(await t().call(connectLog, { token: a.token, query: { start_time: '2025-05-03', end_time: '2025-05-01' } })).toMatchObject({ code: 422, msg: M.logRangeInvalid });
    expect(await t().call(connectLog, { token: a.token, query: { limit: 101 } })).toMatchObject({ code: 422 });
    expect(await t().call(connectLog, {})).toMatchObject({ code: 2001 });
  });

  it("sub-accounts see the tenant's connections, a role limited to networks included", async () => {
    const limited = await ramToken(t(), a.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['NXXX'] } });
    expect(await t().call(connectLog, { token: limited })).toMatchObject({ code: 200, count: 4 });
  });
});

describeEachDatabase('GET /logs/connect with mode: the variant with p2p and POP sessions', (t) => {
  let a: Main;
  let tz: string;
  const day = (date: string, hours = 12) => startOfDay(date, tz) + hours * HOUR;

  beforeAll(async () => {
    a = await newAccount(t());
    tz = t().ctx.config.timezone;
    const sid = `v-${process.pid}-${Date.now()}`;
    await connection(t(), a.account.id, 'gw_office', day('2025-05-01', 9), 1, { remote_ip: '198.51.100.1', remote_port: 51000, version: '3.0.9', session_id: sid });
    await connection(t(), a.account.id, 'gw_office', day('2025-05-01', 18), 0, { session_id: sid });
    await onlineSession(t(), a.account.id, { router_name: 'gw_office', mode: 'p2p', network_number: 'N1', link_router_name: 'hq', start: day('2025-05-01', 10), end: day('2025-05-01', 11), session_id: sid });
    await onlineSession(t(), a.account.id, { router_name: 'laptop_li', mode: 'p2p', network_number: 'N2', link_router_name: 'hq', start: day('2025-05-02', 10), end: null });
    await onlineSession(t(), a.account.id, { router_name: 'gw_office', mode: 'pop', pop_name: 'pop-sh', area: '华东', start: day('2025-05-01', 12), end: day('2025-05-01', 13), session_id: sid });
    const other = await newAccount(t());
    await onlineSession(t(), other.account.id, { router_name: 'gw_office', mode: 'p2p', network_number: 'N1', start: day('2025-05-01', 10) });
  });

  it('answers the sessions of the mode with the connection that carried each, newest first', async () => {
    const p2p = await t().call(connectLog, { token: a.token, query: { mode: 'p2p' } });
    expect(p2p).toMatchObject({ code: 200, count: 2 });
    expect(p2p.data!.map((r) => r.router_name)).toEqual(['laptop_li', 'gw_office']);
    expect(p2p.data![1]).toEqual({
      router_name: 'gw_office',
      remote_ip: '198.51.100.1',
      remote_port: 51000,
      version: '3.0.9',
      online: 0,
      create_time: formatTime(day('2025-05-01', 10), tz),
      network_number: 'N1',
      link_router_name: 'hq',
      pop_name: '',
      area: '',
      orig: '1.2.3.4',
      vpn_ip: '10.8.0.2',
      start_time: formatTime(day('2025-05-01', 10), tz),
      end_time: formatTime(day('2025-05-01', 11), tz),
      online_time: 3600,
    });
    // No connection recorded for it: the connection's fields are empty; still up: online 1.
    expect(p2p.data![0]).toMatchObject({ remote_ip: '', remote_port: 0, version: '', online: 1, end_time: '' });
    const pop = await t().call(connectLog, { token: a.token, query: { mode: 'pop', search: 'gw' } });
    expect(pop.data!.map((r) => [r.router_name, 'pop_name' in r ? r.pop_name : '', r.remote_ip])).toEqual([['gw_office', 'pop-sh', '198.51.100.1']]);
    expect((await t().call(connectLog, { token: a.token, query: { mode: 'p2p', start_time: '2025-05-02', end_time: '2025-05-02' } })).data!.map((r) => r.router_name)).toEqual(['laptop_li']);
    expect(await t().call(connectLog, { token: a.token, query: { mode: 'both' } })).toMatchObject({ code: 422, msg: M.validationFailed });
  });

  it('limits a sub-account whose role lists networks to their p2p sessions, and exports the variant', async () => {
    const limited = await ramToken(t(), a.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['N1'] } });
    expect((await t().call(connectLog, { token: limited, query: { mode: 'p2p' } })).data!.map((r) => r.router_name)).toEqual(['gw_office']);
    const file = await t().call(exportLogs, { token: a.token, query: { type: 'connect_p2p' } });
    expect(file).toMatchObject({ code: 200, data: { file_name: expect.stringMatching(/^P2P连接日志-\d{8}\.xlsx$/) } });
    expect(await t().call(exportLogs, { token: a.token, query: { type: 'connect_pop', search: 'nobody' } })).toMatchObject({ code: 422, msg: M.exportEmpty });
  });
});
