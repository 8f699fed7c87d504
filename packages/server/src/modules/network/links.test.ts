import { listNetworks, M, networkInfo, networkStatus, ROUTER_TYPE, setPointLink, type Endpoint, type NetworkLink } from '@hublink/contract';
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedLink, seedNetwork } from '../../../test/networks';
import { formatTime } from '../../core/time';

type Status = { network_status: number; link: NetworkLink[]; online: Record<string, number> };

describeEachDatabase('networks: links and the online map', (t) => {
  it('expects every point to link to every center, with the state the gateway reported, and maps who is online', async () => {
    const main = await newAccount(t());
    const [c1, c2, p1, p2, outsider] = await seedFreshMembers(t(), main.account.id, 5);
    const [s1] = await seedFreshMembers(t(), main.account.id, 1, { router_type: ROUTER_TYPE.software });
    await t().db.updateTable('member').set({ online_status: 1, note: '中心一' }).where('router_key', '=', c1!.toLowerCase()).execute();
    await t().db.updateTable('member').set({ online_status: 1, note: '分部' }).where('router_key', '=', p1!.toLowerCase()).execute();
    const net = await seedNetwork(t(), main.account.id, { center: [c1!, c2!], point: [p1!, p2!, s1!] });
    const at = Date.UTC(2026, 2, 1, 4, 5, 6);
    await seedLink(t(), net.id, p1!, c1!, { vpn_online: 1, vpn_ip: '10.8.0.2', vpn_online_time: at });
    await seedLink(t(), net.id, p1!, c2!, { vpn_online: 0 });
    await seedLink(t(), net.id, s1!, c1!, { vpn_online: 1, vpn_ip: '10.8.0.9', vpn_online_time: at + 1000 });
    // A state left behind by a member that is not in the network is not a link of it.
    await seedLink(t(), net.id, outsider!, c1!, { vpn_online: 1, vpn_ip: '10.8.0.66', vpn_online_time: at });

    const tz = t().ctx.config.timezone;
    const link = (p: string, pNote: string, c: string, cNote: string, up?: { ip: string; time: number }): NetworkLink => ({
      router_name: p,
      router_name_note: pNote,
      center_router_name: c,
      center_router_name_note: cNote,
      vpn_online: up ? 1 : 0,
      vpn_ip: up?.ip ?? '',
      vpn_online_time: up ? formatTime(up.time, tz) : '',
    });
    const expected = [
      link(p1!, '分部', c1!, '中心一', { ip: '10.8.0.2', time: at }),
      link(p1!, '分部', c2!, ''),
      link(p2!, '', c1!, '中心一'),
      link(p2!, '', c2!, ''),
      link(s1!, '', c1!, '中心一', { ip: '10.8.0.9', time: at + 1000 }),
      link(s1!, '', c2!, ''),
    ];
    const status = await t().call(networkStatus, { token: main.token, query: { network_number: net.network_number } });
    expect(status).toMatchObject({ code: 200 });
    expect(status.data).toEqual({ network_status: 1, link: expected, link_count: expected.length, online: { [c1!]: 1, [c2!]: 0, [p1!]: 1, [p2!]: 0, [s1!]: 0 }, device: {} });
    const info = await t().call(networkInfo, { token: main.token, query: { network_number: net.network_number } });
    expect(info.data!.link).toEqual(expected);
    expect(info.data!.member.map((m) => [m.router_name, m.online])).toEqual([
      [c1, 1],
      [c2, 0],
      [p1, 1],
      [p2, 0],
      [s1, 0],
    ]);
  });
});

describeEachDatabase('networks: links follow the point links', (t) => {
  it('shows, and compiles, a link only to the centers a point links to; a list of no current center means every center', async () => {
    const main = await newAccount(t());
    const [c1, c2, p1, p2] = await seedFreshMembers(t(), main.account.id, 4);
    const net = await seedNetwork(t(), main.account.id, { center: [c1!, c2!], point: [p1!, p2!] });
    const query = { network_number: net.network_number };
    const pairs = (links: NetworkLink[]) => links.map((l) => [l.router_name, l.center_router_name]);

    const res = await t().call(setPointLink, { token: main.token, body: { ...query, link_config: { [p1!]: [c2!] } } });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: 200, msg: M.saved });
    const expected = [
      [p1, c2],
      [p2, c1],
      [p2, c2],
    ];
    expect(pairs((await t().call(networkInfo, { token: main.token, query })).data!.link)).toEqual(expected);
    expect(pairs((await t().call(networkStatus, { token: main.token, query })).data!.link)).toEqual(expected);

    // The compiled configurations agree: p1 dials c2 only, and c1 no longer lists it.
    await t().ctx.events.settle();
    const configs = await t()
      .db.selectFrom('member_config as mc')
      .innerJoin('member as m', 'm.id', 'mc.member_id')
      .select(['m.router_name', 'mc.config'])
      .where('mc.network_id', '=', net.id)
      .execute();
    const json = (name: string) => JSON.parse(configs.find((r) => r.router_name === name)!.config) as { tunnels?: { center: string }[]; services?: { clients: { router_name: string }[] }[] };
    expect(json(p1!).tunnels!.map((tn) => tn.center)).toEqual([c2]);
    expect(json(c1!).services!.flatMap((sv) => sv.clients.map((c) => c.router_name))).toEqual([p2]);
    expect(json(c2!).services!.flatMap((sv) => sv.clients.map((c) => c.router_name))).toEqual([p1, p2]);

    const p1Id = (await t().db.selectFrom('member').select('id').where('router_name', '=', p1!).executeTakeFirstOrThrow()).id;
    await t().db.updateTable('network_member').set({ link_centers: JSON.stringify([p1Id]) }).where('network_id', '=', net.id).where('member_id', '=', p1Id).execute();
    expect(pairs((await t().call(networkStatus, { token: main.token, query })).data!.link)).toEqual([
      [p1, c1],
      [p1, c2],
      [p2, c1],
      [p2, c2],
    ]);
  });
});

/** Records every query the services send (their ctx.db is swapped for a recording one). */
class Recorder implements KyselyPlugin {
  queries: CompiledQuery[] = [];
  constructor(private readonly t: TestApp) {}
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push(this.t.db.getExecutor().compileQuery(args.node, args.queryId));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function recorded(t: TestApp, endpoint: Endpoint, token: string, query: Record<string, unknown>) {
  const original = t.ctx.db;
  const recorder = new Recorder(t);
  t.ctx.db = original.withPlugin(recorder);
  try {
    const res = await t.call(endpoint, { token, query });
    expect(res.code).toBe(200);
    return { res, queries: recorder.queries };
  } finally {
    t.ctx.db = original;
  }
}

/** SQLite's plan of a query: no step may read a whole table or index. */
async function fullScans(t: TestApp, q: CompiledQuery): Promise<string[]> {
  const plan = await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
  return plan.rows.map((r) => r.detail).filter((d) => /^SCAN /.test(d) && !/^SCAN CONSTANT ROW/.test(d));
}

describeEachDatabase('networks: /network/status and /network/lists do a fixed number of indexed queries', (t) => {
  it('reads a 1,000-member network and a page of large networks with as many queries as small ones, none scanning a table', async () => {
    const main = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: 5000 }).where('id', '=', main.account.id).execute();
    const names = await seedFreshMembers(t(), main.account.id, 1002);
    const small = await seedNetwork(t(), main.account.id, { center: [names[0]!], point: [names[1]!] });
    const large = await seedNetwork(t(), main.account.id, { center: names.slice(0, 2), point: names.slice(2, 1000) });
    for (let i = 2; i < 400; i += 7) await seedLink(t(), large.id, names[i]!, names[i % 2]!, { vpn_online: 1, vpn_ip: '10.0.0.1', vpn_online_time: Date.now() });

    const s = await recorded(t(), networkStatus, main.token, { network_number: small.network_number });
    const l = await recorded(t(), networkStatus, main.token, { network_number: large.network_number });
    expect((l.res.data as Status).link).toHaveLength(998 * 2);
    expect(Object.keys((l.res.data as Status).online)).toHaveLength(1000);
    expect(l.queries.length).toBe(s.queries.length);
    // The caller's account, the network, the plan, the use, the members, the reported links, and the
    // device state: the members' config versions and their latest commands (a third read when there are some).
    expect(l.queries.length).toBeLessThanOrEqual(8);

    // Full pages (a page that is not full spares the count): small networks first, then large ones.
    for (let i = 0; i < 10; i++) await seedNetwork(t(), main.account.id, { name: `小网${i}`, center: [names[0]!], point: [names[1]!] });
    const before = await recorded(t(), listNetworks, main.token, { page: 1 });
    for (let i = 0; i < 12; i++) await seedNetwork(t(), main.account.id, { name: `大网${i}`, center: [names[1000]!], point: names.slice(0, 500) });
    const after = await recorded(t(), listNetworks, main.token, { page: 1 });
    expect(after.res.count).toBe(24);
    const searched = await recorded(t(), listNetworks, main.token, { page: 1, search: '大网' });
    expect(searched.res.count).toBe(12);
    expect(after.queries.length).toBe(before.queries.length);
    expect(searched.queries.length).toBe(before.queries.length);

    if (t().dialect === 'sqlite') {
      for (const q of [...l.queries, ...after.queries, ...searched.queries]) {
        expect({ sql: q.sql, scans: await fullScans(t(), q) }).toEqual({ sql: q.sql, scans: [] });
      }
    }
  });
});
