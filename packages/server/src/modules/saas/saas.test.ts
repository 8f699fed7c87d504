import { fmt, LIMITS, M, saasAppLog, saasAppLogTop, saasBandwidth, saasConnect, saasInfo, saasOrigLog, saasOrigLogTop, saasRouters, saasTraffic } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import type { RoleAuth } from '../../core/actor';
import { assignSaasDevice, SaasAssignError } from './assign';
import { addMember, at, flowRows, minuteOf, saasDevice } from './fixtures';
import { purgeOldHistory } from './retention';

type Main = Awaited<ReturnType<typeof newAccount>>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NO_ROUTER: RoleAuth = { ...FULL_ROLE, 'easylink.router': { create: 0, edit: 0, delete: 0 } };
const ANALYSIS = [saasAppLog, saasAppLogTop, saasOrigLog, saasOrigLogTop];

describeEachDatabase('saas: the device list and detail', (t) => {
  let a: Main;
  let shared: { name: string; id: number };
  let standard: { name: string; id: number };
  let plainHardware: string;

  beforeAll(async () => {
    a = await newAccount(t());
    shared = await saasDevice(t(), a.token, a.account.id, { category: '华东', ip: ['1.2.3.4', '5.6.7.8'], expire_date: Date.UTC(2030, 0, 1) });
    standard = await saasDevice(t(), a.token, a.account.id, { category: '华北', share: 0, bandwidth: 0 });
    await saasDevice(t(), a.token, a.account.id, { category: '' });
    plainHardware = await addMember(t(), a.token, 1);
    await t().db.updateTable('member').set({ note: '上海机房', online_status: 1, online_time: Date.now() - HOUR }).where('id', '=', shared.id).execute();
  });

  it('groups devices by category, named categories first, and leaves plain hardware members out', async () => {
    const res = await t().call(saasRouters, { token: a.token });
    expect(res.code).toBe(200);
    expect(res.data!.map((g) => g.category)).toEqual(['华东', '华北', '']);
    expect(res.data![0]!.list).toEqual([{ router_name: shared.name, note: '上海机房', online: 1, bandwidth: 20, max_bandwidth: 100, share: 1 }]);
    expect(res.data![1]!.list[0]).toMatchObject({ router_name: standard.name, online: 0, bandwidth: 0, share: 0 });
    expect(res.data!.flatMap((g) => g.list.map((d) => d.router_name))).not.toContain(plainHardware);
  });

  it('searches name and note; only non-empty groups come back', async () => {
    expect((await t().call(saasRouters, { token: a.token, query: { search: '上海' } })).data).toEqual([
      { category: '华东', list: [expect.objectContaining({ router_name: shared.name })] },
    ]);
    expect((await t().call(saasRouters, { token: a.token, query: { search: standard.name.toUpperCase() } })).data!.map((g) => g.category)).toEqual(['华北']);
    expect((await t().call(saasRouters, { token: a.token, query: { search: 'nothing-like-it' } })).data).toEqual([]);
  });

  it('gives the detail of a device, and 204 for a plain hardware member or an unknown name', async () => {
    const res = await t().call(saasInfo, { token: a.token, query: { router_name: shared.name } });
    expect(res.data).toMatchObject({
      router_name: shared.name,
      category: '华东',
      share: 1,
      bandwidth: 20,
      max_bandwidth: 100,
      ip: ['1.2.3.4', '5.6.7.8'],
      expire_date: at(t(), Date.UTC(2030, 0, 1)),
      temp_bandwidth: 0,
      temp_start_date: '',
      online: 1,
    });
    expect(res.data!.online_time).not.toBe('');
    for (const router_name of [plainHardware, 'nosuchdevice']) {
      expect(await t().call(saasInfo, { token: a.token, query: { router_name } })).toMatchObject({ code: 204, msg: M.saasDeviceNotFound });
    }
  });
});

describeEachDatabase('saas: bandwidth', (t) => {
  let a: Main;
  let shared: { name: string; id: number };
  let standard: { name: string; id: number };
  const bandwidthOf = async (id: number) => (await t().db.selectFrom('saas_device').select('bandwidth').where('member_id', '=', id).executeTakeFirstOrThrow()).bandwidth;

  beforeAll(async () => {
    a = await newAccount(t());
    shared = await saasDevice(t(), a.token, a.account.id, { max_bandwidth: 50, bandwidth: 10 });
    standard = await saasDevice(t(), a.token, a.account.id, { share: 0, max_bandwidth: 50, bandwidth: 10 });
  });

  it('changes a shared device within (0, max]', async () => {
    expect(await t().call(saasBandwidth, { token: a.token, body: { router_name: shared.name, bandwidth: 50 } })).toMatchObject({ code: 200, msg: M.saved });
    expect(await bandwidthOf(shared.id)).toBe(50);
  });

  it("refuses 0, negatives, over max and a missing value with the spec's messages, changing nothing", async () => {
    const before = await bandwidthOf(shared.id);
    const cases: [unknown, string][] = [
      [0, M.saasBandwidthPositive],
      [-3, M.saasBandwidthPositive],
      [51, fmt(M.saasBandwidthOverMax, { n: 50 })],
      [undefined, M.saasBandwidthRequired],
      ['abc', M.saasBandwidthRequired],
    ];
    for (const [bandwidth, msg] of cases) {
      const res = await t().call(saasBandwidth, { token: a.token, body: { router_name: shared.name, bandwidth } as never });
      expect({ bandwidth, code: res.code, msg: res.msg }).toEqual({ bandwidth, code: 422, msg });
    }
    expect(fmt(M.saasBandwidthOverMax, { n: 50 })).toBe('带宽不能大于最大值：50 Mbs');
    expect(await bandwidthOf(shared.id)).toBe(before);
  });

  it('refuses a standard-edition device (share is not 1)', async () => {
    expect(await t().call(saasBandwidth, { token: a.token, body: { router_name: standard.name, bandwidth: 20 } })).toMatchObject({ code: 422, msg: M.saasBandwidthNotShared });
    expect(await bandwidthOf(standard.id)).toBe(10);
  });
});

describeEachDatabase('saas: dial-in records and traffic', (t) => {
  let a: Main;
  let dev: { name: string; id: number };
  const now = Date.now();

  beforeAll(async () => {
    a = await newAccount(t());
    dev = await saasDevice(t(), a.token, a.account.id);
    const base = { tenant_id: a.account.id, router_name: dev.name, mode: 'pop', online_time: 0 };
    await t().db.insertInto('online_log').values([
      { ...base, orig: '10.1.1.1:5000', vpn_ip: '172.16.0.2', start_time: now - 3 * HOUR, end_time: now - 2 * HOUR, online_time: 3600 },
      { ...base, orig: '10.2.2.2:6000', vpn_ip: '172.16.0.3', start_time: now - 30 * 60_000, end_time: null },
      { ...base, router_name: 'someoneelse', orig: '10.9.9.9:1', vpn_ip: '172.16.0.9', start_time: now - HOUR, end_time: null },
    ]).execute();
    await flowRows(t(), a.account.id, dev.id, [
      { kind: 'app', name: 'wechat', download: 1000, upload: 100, at: now - 150 * 60_000 },
      { kind: 'orig', name: '10.1.1.1', download: 1000, upload: 100, at: now - 150 * 60_000 },
      { kind: 'app', name: 'wechat', download: 7, upload: 3, at: now - 10 * 60_000 },
    ]);
    // Two reports in one minute (the first of two interfaces), and one older than the chart's hours.
    await t().db.insertInto('traffic_minute').values([
      { tenant_id: a.account.id, member_id: dev.id, minute: minuteOf(now - 5 * 60_000), down_sum: 4, upload_sum: 2, samples: 2 },
      { tenant_id: a.account.id, member_id: dev.id, minute: minuteOf(now - 30 * HOUR), down_sum: 9, upload_sum: 9, samples: 1 },
    ]).execute();
  });

  it('lists the sessions newest first with their flow bytes, and searches ip and origin', async () => {
    const res = await t().call(saasConnect, { token: a.token, query: { router_name: dev.name } });
    expect(res).toMatchObject({ code: 200, count: 2 });
    expect(res.data![0]).toMatchObject({ ip: '172.16.0.3', origin: '10.2.2.2:6000', input: 7, out: 3, stop_time: '' });
    expect(res.data![0]!.online_time).toBeGreaterThanOrEqual(1800);
    expect(res.data![1]).toMatchObject({ ip: '172.16.0.2', input: 1000, out: 100, online_time: 3600, session_date: at(t(), now - 3 * HOUR), stop_time: at(t(), now - 2 * HOUR) });
    const found = await t().call(saasConnect, { token: a.token, query: { router_name: dev.name, search: '10.1.1' } });
    expect(found).toMatchObject({ count: 1, data: [{ ip: '172.16.0.2' }] });
    expect(await t().call(saasConnect, { token: a.token, query: { router_name: dev.name, page: 2 } })).toMatchObject({ data: [], count: 2 });
  });

  it("shows each ended session's own bytes, not the device's flows over its time", async () => {
    const two = await saasDevice(t(), a.token, a.account.id);
    const base = { tenant_id: a.account.id, router_name: two.name, mode: 'p2p', start_time: now - 2 * HOUR, end_time: now - HOUR, online_time: 3600 };
    await t().db.insertInto('online_log').values([
      { ...base, orig: '10.3.3.3:1', vpn_ip: '172.16.1.2', bytes_in: 5_000_000_000, bytes_out: 40 },
      { ...base, orig: '10.4.4.4:1', vpn_ip: '172.16.1.3', start_time: now - 2 * HOUR + 1000, bytes_in: 12, bytes_out: 34 },
    ]).execute();
    await flowRows(t(), a.account.id, two.id, [{ kind: 'app', name: 'wechat', download: 999, upload: 99, at: now - 90 * 60_000 }]);
    const res = await t().call(saasConnect, { token: a.token, query: { router_name: two.name } });
    expect(res.data!.map((r) => [r.ip, r.input, r.out])).toEqual([
      ['172.16.1.3', 12, 34],
      ['172.16.1.2', 5_000_000_000, 40],
    ]);
  });

  it('charts the last hours as minute averages of the reports', async () => {
    const res = await t().call(saasTraffic, { token: a.token, query: { router_name: dev.name } });
    expect(res.data).toEqual([{ time: at(t(), minuteOf(now - 5 * 60_000)), down: 2, upload: 1 }]);
  });
});

describeEachDatabase('saas: records of a plain hardware member (the router detail second view)', (t) => {
  let a: Main;
  let plain: string;
  let software: string;
  const now = Date.now();

  beforeAll(async () => {
    a = await newAccount(t());
    plain = await addMember(t(), a.token, 1);
    software = await addMember(t(), a.token, 2);
    const m = await t().db.selectFrom('member').select('id').where('tenant_id', '=', a.account.id).where('router_name', '=', plain).executeTakeFirstOrThrow();
    await t().db.insertInto('online_log').values({ tenant_id: a.account.id, router_name: plain, mode: 'pop', orig: '10.3.3.3:7000', vpn_ip: '172.16.0.4', start_time: now - HOUR, end_time: null, online_time: 0 }).execute();
    await flowRows(t(), a.account.id, m.id, [{ kind: 'app', name: 'dns', download: 50, upload: 5, at: now - 20 * 60_000 }]);
    await t().db.insertInto('traffic_minute').values({ tenant_id: a.account.id, member_id: m.id, minute: minuteOf(now - 5 * 60_000), down_sum: 6, upload_sum: 3, samples: 3 }).execute();
  });

  it('answers traffic, connections and analysis for a hardware member that is not a SaaS device', async () => {
    expect(await t().call(saasInfo, { token: a.token, query: { router_name: plain } })).toMatchObject({ code: 204 });
    expect(await t().call(saasConnect, { token: a.token, query: { router_name: plain.toUpperCase() } })).toMatchObject({ code: 200, count: 1, data: [{ ip: '172.16.0.4', input: 50, out: 5 }] });
    expect((await t().call(saasTraffic, { token: a.token, query: { router_name: plain } })).data).toEqual([{ time: at(t(), minuteOf(now - 5 * 60_000)), down: 2, upload: 1 }]);
    const range = { start_date: at(t(), now - 2 * HOUR), end_date: at(t(), now) };
    expect((await t().call(saasAppLog, { token: a.token, query: { router_name: plain, ...range } })).data).toEqual([{ name: 'dns', download_flow_sum: 50, upload_flow_sum: 5 }]);
  });

  it('keeps 204 for a software member, an unknown name and another tenant', async () => {
    const b = await newAccount(t());
    const range = { start_date: at(t(), now - 2 * HOUR), end_date: at(t(), now) };
    for (const [token, router_name] of [[a.token, software], [a.token, 'nosuchmember'], [b.token, plain]] as const) {
      expect(await t().call(saasConnect, { token, query: { router_name } })).toMatchObject({ code: 204, msg: M.saasDeviceNotFound });
      expect(await t().call(saasTraffic, { token, query: { router_name } })).toMatchObject({ code: 204 });
      expect(await t().call(saasOrigLog, { token, query: { router_name, ...range } })).toMatchObject({ code: 204 });
    }
  });
});

describeEachDatabase('saas: analysis', (t) => {
  let a: Main;
  let dev: { name: string; id: number };
  const now = Date.now();

  beforeAll(async () => {
    a = await newAccount(t());
    dev = await saasDevice(t(), a.token, a.account.id);
    await flowRows(t(), a.account.id, dev.id, [
      ...Array.from({ length: 35 }, (_, i) => ({ kind: 'orig' as const, name: `10.0.0.${i}`, download: 100 + i, upload: i, at: now - 2 * HOUR })),
      { kind: 'app', name: 'wechat', download: 500, upload: 50, at: now - 20 * 60_000 },
      { kind: 'app', name: 'dingtalk', download: 900, upload: 10, at: now - 20 * 60_000 },
      { kind: 'app', name: 'wechat', download: 100, upload: 10, at: now - 5 * HOUR },
    ]);
  });

  const range = (from: number, to = now) => ({ router_name: dev.name, start_date: at(t(), from), end_date: at(t(), to) });

  it('sums bytes per application in the range, largest download first', async () => {
    expect((await t().call(saasAppLog, { token: a.token, query: range(now - HOUR) })).data).toEqual([
      { name: 'dingtalk', download_flow_sum: 900, upload_flow_sum: 10 },
      { name: 'wechat', download_flow_sum: 500, upload_flow_sum: 50 },
    ]);
    expect((await t().call(saasAppLogTop, { token: a.token, query: range(now - 6 * HOUR) })).data).toEqual([
      { name: 'dingtalk', download_flow_sum: 900, upload_flow_sum: 10 },
      { name: 'wechat', download_flow_sum: 600, upload_flow_sum: 60 },
    ]);
  });

  it('the top source view gives the 30 largest; the source log lists them all', async () => {
    const top = (await t().call(saasOrigLogTop, { token: a.token, query: range(now - 6 * HOUR) })).data!;
    expect(top).toHaveLength(LIMITS.saasTop);
    expect(top[0]).toEqual({ name: '10.0.0.34', download_flow_sum: 134, upload_flow_sum: 34 });
    expect(top.map((r) => r.name)).not.toContain('10.0.0.0');
    expect((await t().call(saasOrigLog, { token: a.token, query: range(now - 6 * HOUR) })).data).toHaveLength(35);
    expect((await t().call(saasOrigLog, { token: a.token, query: range(now - HOUR) })).data).toEqual([]);
  });

  it('refuses bad times, a reversed range and a start beyond 180 days', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...range(now - HOUR), start_date: '2026-02-30 10:00:00' }, M.saasDateTimeInvalid],
      [{ ...range(now - HOUR), end_date: 'yesterday' }, M.saasDateTimeInvalid],
      [{ ...range(now - HOUR), start_date: '2026-01-01 24:00:00' }, M.saasDateTimeInvalid],
      [range(now, now - HOUR), M.saasRangeOrder],
      [range(now - (LIMITS.saasAnalysisDays + 2) * DAY), fmt(M.saasRangeTooOld, { n: LIMITS.saasAnalysisDays })],
    ];
    for (const endpoint of ANALYSIS) {
      for (const [query, msg] of cases) {
        const res = await t().call(endpoint, { token: a.token, query: query as never });
        expect({ path: endpoint.path, query, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, query, code: 422, msg });
      }
      expect(await t().call(endpoint, { token: a.token, query: range(now - LIMITS.saasAnalysisDays * DAY) })).toMatchObject({ code: 200 });
    }
  });
});

describeEachDatabase('saas: tenants and sub-accounts', (t) => {
  let a: Main;
  let b: Main;
  let dev: { name: string; id: number };

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    dev = await saasDevice(t(), a.token, a.account.id, { category: '甲的分类' });
    await flowRows(t(), a.account.id, dev.id, [{ kind: 'app', name: 'secretapp', download: 1, upload: 1, at: Date.now() }]);
  });

  it("B sees none of A's devices and reaches none by name", async () => {
    expect((await t().call(saasRouters, { token: b.token })).data).toEqual([]);
    const q = { router_name: dev.name };
    const range = { ...q, start_date: at(t(), Date.now() - HOUR), end_date: at(t(), Date.now()) };
    for (const [endpoint, query] of [
      [saasInfo, q],
      [saasConnect, q],
      [saasTraffic, q],
      ...ANALYSIS.map((e) => [e, range] as const),
    ] as const) {
      expect({ path: endpoint.path, ...(await t().call(endpoint as typeof saasInfo, { token: b.token, query: query as never })) }).toMatchObject({
        path: endpoint.path,
        code: 204,
        msg: M.saasDeviceNotFound,
      });
    }
    expect(await t().call(saasBandwidth, { token: b.token, body: { router_name: dev.name, bandwidth: 5 } })).toMatchObject({ code: 204 });
  });

  it('a sub-account reads the devices; changing bandwidth needs easylink.router.edit', async () => {
    const reader = await ramToken(t(), a.account.id, NO_ROUTER);
    expect((await t().call(saasRouters, { token: reader })).data![0]!.list[0]!.router_name).toBe(dev.name);
    expect(await t().call(saasInfo, { token: reader, query: { router_name: dev.name } })).toMatchObject({ code: 200 });
    expect(await t().call(saasBandwidth, { token: reader, body: { router_name: dev.name, bandwidth: 5 } })).toMatchObject({ code: 403, msg: M.deniedPermission });
    const editor = await ramToken(t(), a.account.id, FULL_ROLE);
    expect(await t().call(saasBandwidth, { token: editor, body: { router_name: dev.name, bandwidth: 5 } })).toMatchObject({ code: 200 });
  });
});

describeEachDatabase('saas: the operator assigns devices; history is purged', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
  });

  it('assigns a hardware member, updates it on a second call, refuses software members and other tenants', async () => {
    const { name, id } = await saasDevice(t(), a.token, a.account.id, { category: '一', bandwidth: 1 });
    await assignSaasDevice(t().db, { tenantId: a.account.id, routerName: name.toUpperCase(), category: '二', share: 0, max_bandwidth: 10, bandwidth: 10, expire_date: null });
    expect(await t().db.selectFrom('saas_device').select(['category', 'share', 'bandwidth']).where('member_id', '=', id).execute()).toEqual([{ category: '二', share: 0, bandwidth: 10 }]);
    const soft = await addMember(t(), a.token, 2);
    const other = await newAccount(t());
    const base = { category: '', share: 1, max_bandwidth: 10, bandwidth: 1, expire_date: null };
    await expect(assignSaasDevice(t().db, { ...base, tenantId: a.account.id, routerName: soft })).rejects.toThrow(SaasAssignError);
    await expect(assignSaasDevice(t().db, { ...base, tenantId: other.account.id, routerName: name })).rejects.toThrow(SaasAssignError);
    await expect(assignSaasDevice(t().db, { ...base, tenantId: a.account.id, routerName: name, bandwidth: 11 })).rejects.toThrow(SaasAssignError);
  });

  it('the retention job deletes minutes older than 180 days and keeps the rest', async () => {
    const { id } = await saasDevice(t(), a.token, a.account.id);
    const now = Date.now();
    const old = now - (LIMITS.saasHistoryDays + 1) * DAY;
    const row = (minute: number, name: string) => ({ tenant_id: a.account.id, member_id: id, kind: 'app', name, minute, download: 1, upload: 1 });
    await t().db.insertInto('flow_minute').values([row(old, 'old'), row(now - DAY, 'recent')]).execute();
    await t().db.insertInto('traffic_minute').values([
      { tenant_id: a.account.id, member_id: id, minute: old, down_sum: 1, upload_sum: 1, samples: 1 },
      { tenant_id: a.account.id, member_id: id, minute: now - DAY, down_sum: 1, upload_sum: 1, samples: 1 },
    ]).execute();
    expect(await purgeOldHistory(t().ctx, now)).toBeGreaterThanOrEqual(2);
    expect((await t().db.selectFrom('flow_minute').select('name').where('member_id', '=', id).execute()).map((r) => r.name)).toEqual(['recent']);
    expect(await t().db.selectFrom('traffic_minute').select('minute').where('member_id', '=', id).execute()).toHaveLength(1);
  });
});
