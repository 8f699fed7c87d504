import { connectLog, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { formatTime, startOfDay } from '../../core/time';
import { connection, HOUR } from './fixtures';

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
