import { M, onlineLog, softwareLoginLog } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, signIn } from '../../../test/helpers';
import { formatTime, startOfDay } from '../../core/time';
import { HOUR, onlineSession as session, softwareLogin as login } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

describeEachDatabase('GET /logs/software_login', (t) => {
  let a: Main;
  let tz: string;
  const day = (date: string, hours = 12) => startOfDay(date, tz) + hours * HOUR;

  beforeAll(async () => {
    a = await newAccount(t());
    tz = t().ctx.config.timezone;
    await login(t(), a.account.id, 'alice', day('2025-03-01'));
    await login(t(), a.account.id, 'bob', day('2025-03-02'), { ip: '192.168.9.9', os: 'macos' });
    await login(t(), a.account.id, 'alice', day('2025-03-03', 0));
    await login(t(), a.account.id, 'alice', day('2025-03-03', 23.99));
    const other = await newAccount(t());
    await login(t(), other.account.id, 'alice', day('2025-03-02'));
  });

  it("lists the tenant's sign-ins, newest first, with their fields and time", async () => {
    const res = await t().call(softwareLoginLog, { token: a.token });
    expect(res).toMatchObject({ code: 200, count: 4 });
    expect(res.data!.map((r) => r.create_time)).toEqual([day('2025-03-03', 23.99), day('2025-03-03', 0), day('2025-03-02'), day('2025-03-01')].map((ms) => formatTime(ms, tz)));
    expect(res.data![2]).toEqual({ router_name: 'bob', ip: '192.168.9.9', os: 'macos', version: '2.0.1', sys_brand: 'Lenovo', sys_model: 'X1', sys_version: '11', create_time: formatTime(day('2025-03-02'), tz) });
  });

  it('filters by member, by search and by whole days (both ends included)', async () => {
    expect((await t().call(softwareLoginLog, { token: a.token, query: { router_name: 'alice' } })).count).toBe(3);
    expect((await t().call(softwareLoginLog, { token: a.token, query: { search: '192.168' } })).data!.map((r) => r.router_name)).toEqual(['bob']);
    const days = await t().call(softwareLoginLog, { token: a.token, query: { start_time: '2025-03-02', end_time: '2025-03-03' } });
    expect(days.count).toBe(3);
    const one = await t().call(softwareLoginLog, { token: a.token, query: { start_time: '2025-03-03', end_time: '2025-03-03' } });
    expect(one.count).toBe(2);
    expect((await t().call(softwareLoginLog, { token: a.token, query: { end_time: '2025-03-01' } })).count).toBe(1);
  });

  it('pages by 10 (limit) and refuses a malformed date', async () => {
    const res = await t().call(softwareLoginLog, { token: a.token, query: { limit: 3, page: 2 } });
    expect(res).toMatchObject({ count: 4 });
    expect(res.data).toHaveLength(1);
    expect(await t().call(softwareLoginLog, { token: a.token, query: { start_time: '2025/03/01' } })).toMatchObject({ code: 422, msg: M.logDateInvalid });
  });

  it('is for main accounts only', async () => {
    const ram = await newRamAccount(t(), a.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    expect(await t().call(softwareLoginLog, { token })).toMatchObject({ code: 403, msg: M.deniedMainOnly });
  });
});

describeEachDatabase('GET /logs/online', (t) => {
  let a: Main;
  let tz: string;
  const day = (date: string, hours = 12) => startOfDay(date, tz) + hours * HOUR;

  beforeAll(async () => {
    a = await newAccount(t());
    tz = t().ctx.config.timezone;
    await session(t(), a.account.id, { router_name: 'alice', network_number: 'NAAA', link_router_name: 'center1', start: day('2025-04-01'), online_time: 600 });
    await session(t(), a.account.id, { router_name: 'bob', network_number: 'NBBB', link_router_name: 'center2', start: day('2025-04-02') });
    await session(t(), a.account.id, { router_name: 'alice', mode: 'pop', pop_name: '上海POP', area: '华东', start: day('2025-04-03') });
    await session(t(), a.account.id, { router_name: 'carol', network_number: 'NAAA', link_router_name: 'center1', start: Date.now() - 90_000, end: null });
    const other = await newAccount(t());
    await session(t(), other.account.id, { router_name: 'alice', network_number: 'NAAA', start: day('2025-04-02') });
  });

  it('lists p2p sessions by default, newest first; a session still up has no end and lasts until now', async () => {
    const res = await t().call(onlineLog, { token: a.token });
    expect(res).toMatchObject({ code: 200, count: 3 });
    expect(res.data!.map((r) => r.router_name)).toEqual(['carol', 'bob', 'alice']);
    expect(res.data![0]!.end_time).toBe('');
    expect(res.data![0]!.online_time).toBeGreaterThanOrEqual(89);
    expect(res.data![2]).toEqual({
      router_name: 'alice',
      network_number: 'NAAA',
      link_router_name: 'center1',
      pop_name: '',
      area: '',
      orig: '1.2.3.4',
      vpn_ip: '10.8.0.2',
      start_time: formatTime(day('2025-04-01'), tz),
      end_time: formatTime(day('2025-04-01') + 600_000, tz),
      online_time: 600,
    });
  });

  it('lists POP sessions in pop mode', async () => {
    const res = await t().call(onlineLog, { token: a.token, query: { mode: 'pop' } });
    expect(res.data!.map((r) => [r.router_name, r.pop_name, r.area])).toEqual([['alice', '上海POP', '华东']]);
    expect(await t().call(onlineLog, { token: a.token, query: { mode: 'other' } })).toMatchObject({ code: 422 });
  });

  it('filters by member, search and days', async () => {
    expect((await t().call(onlineLog, { token: a.token, query: { router_name: 'alice' } })).data!.map((r) => r.network_number)).toEqual(['NAAA']);
    expect((await t().call(onlineLog, { token: a.token, query: { search: 'center2' } })).data!.map((r) => r.router_name)).toEqual(['bob']);
    expect((await t().call(onlineLog, { token: a.token, query: { start_time: '2025-04-01', end_time: '2025-04-02' } })).count).toBe(2);
  });

  it("a sub-account whose role lists networks sees those networks' sessions only", async () => {
    const limited = await newRamAccount(t(), a.account.id, { auth: { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['NBBB'] } } });
    const token = (await signIn(t(), limited.login, limited.password, { ram: true })).data!.access_token;
    expect((await t().call(onlineLog, { token })).data!.map((r) => r.router_name)).toEqual(['bob']);
    const all = await newRamAccount(t(), a.account.id);
    const allToken = (await signIn(t(), all.login, all.password, { ram: true })).data!.access_token;
    expect((await t().call(onlineLog, { token: allToken })).count).toBe(3);
  });
});
