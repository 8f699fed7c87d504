import { BM, CODE, networkInfo, networkStatus } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedLink, seedNetwork } from '../../../test/networks';

/**
 * A network of 2 centers and 23 points: the last point links to the first center only; the first
 * three points report their links; points 11 and 12 have a config version, point 12 has applied it.
 */
async function bigNetwork(t: TestApp) {
  const main = await newAccount(t);
  const centers = await seedFreshMembers(t, main.account.id, 2);
  const points = await seedFreshMembers(t, main.account.id, 23);
  const net = await seedNetwork(t, main.account.id, { center: centers, point: points });
  const idOf = async (name: string) => (await t.db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;
  const firstCenter = await idOf(centers[0]!);
  await t.db
    .updateTable('network_member')
    .set({ link_centers: JSON.stringify([firstCenter]) })
    .where('network_id', '=', net.id)
    .where('member_id', '=', await idOf(points[22]!))
    .execute();
  for (const p of points.slice(0, 3)) await seedLink(t, net.id, p, centers[0]!, { vpn_online: 1, vpn_ip: '100.64.0.9', vpn_online_time: Date.now() });
  await t.db.updateTable('member').set({ online_status: 1 }).where('router_key', 'in', [centers[1]!.toLowerCase(), points[10]!.toLowerCase()]).execute();
  for (const [name, applied] of [
    [points[10]!, 0],
    [points[11]!, 2],
  ] as const) {
    await t.db
      .insertInto('member_config')
      .values({ tenant_id: main.account.id, network_id: net.id, member_id: await idOf(name), version: 2, hash: 'h', config: '{}', openvpn: '{}', update_time: Date.now(), applied_version: applied, applied_time: null })
      .execute();
  }
  return { main, centers, points, number: net.network_number };
}

/** Every link in order: each point to both centers, the last to the first only. */
const everyLink = (centers: string[], points: string[]) => points.flatMap((p, i) => (i === 22 ? [[p, centers[0]]] : centers.map((c) => [p, c])));
const pairs = (links: { router_name: string; center_router_name: string }[]) => links.map((l) => [l.router_name, l.center_router_name]);

describeEachDatabase('network detail: paging a big network (issue 34)', (t) => {
  it('answers whole without paging, with every center and the count of links', async () => {
    const { main, centers, points, number } = await bigNetwork(t());
    const res = await t().call(networkInfo, { token: main.token, query: { network_number: number } });
    expect(res.code).toBe(CODE.ok);
    const d = res.data!;
    expect(d.member.map((m) => m.router_name)).toEqual([...centers, ...points]);
    expect(d.centers.map((m) => m.router_name)).toEqual(centers);
    expect(pairs(d.link)).toEqual(everyLink(centers, points));
    expect(d).toMatchObject({ member_count: 25, link_count: 45 });
  });

  it('sends a page of members, every center, and the links of the page’s points', async () => {
    const { main, centers, points, number } = await bigNetwork(t());
    const first = (await t().call(networkInfo, { token: main.token, query: { network_number: number, member_page: 1 } })).data!;
    expect(first.member.map((m) => m.router_name)).toEqual([...centers, ...points.slice(0, 8)]);
    expect(pairs(first.link)).toEqual(everyLink(centers, points).slice(0, 16));
    expect(first.link[0]).toMatchObject({ vpn_online: 1, vpn_ip: '100.64.0.9' });
    expect(first).toMatchObject({ member_count: 25, link_count: 45, network_center_link_show: 1 });

    const last = (await t().call(networkInfo, { token: main.token, query: { network_number: number, member_page: 3 } })).data!;
    expect(last.member.map((m) => m.router_name)).toEqual(points.slice(18));
    expect(last.centers.map((m) => m.router_name)).toEqual(centers);
    expect(pairs(last.link)).toEqual(everyLink(centers, points).slice(36));

    const beyond = (await t().call(networkInfo, { token: main.token, query: { network_number: number, member_page: 9 } })).data!;
    expect(beyond).toMatchObject({ member: [], link: [], member_count: 25, link_count: 45 });
    expect(beyond.centers).toHaveLength(2);
  });

  it('pages the links on their own, at the size asked', async () => {
    const { main, centers, points, number } = await bigNetwork(t());
    const d = (await t().call(networkInfo, { token: main.token, query: { network_number: number, member_page: 1, link_page: 3, page_size: 20 } })).data!;
    expect(d.member.map((m) => m.router_name)).toEqual([...centers, ...points.slice(0, 18)]);
    expect(pairs(d.link)).toEqual(everyLink(centers, points).slice(40, 45));
  });

  it('polls the status of the pages only: links, online flags and device states of the page and the centers', async () => {
    const { main, centers, points, number } = await bigNetwork(t());
    const whole = (await t().call(networkStatus, { token: main.token, query: { network_number: number } })).data!;
    expect(Object.keys(whole.online)).toHaveLength(25);
    expect(whole.link_count).toBe(45);
    expect(Object.keys(whole.device).sort()).toEqual([points[10]!, points[11]!].sort());

    const paged = (await t().call(networkStatus, { token: main.token, query: { network_number: number, member_page: 2, link_page: 1 } })).data!;
    expect(paged.online).toEqual(Object.fromEntries([...centers, ...points.slice(8, 18)].map((n) => [n, n === centers[1] || n === points[10] ? 1 : 0])));
    expect(paged.device).toEqual({
      [points[10]!]: { config_version: 2, applied_version: 0, applied_error: '', command: null },
      [points[11]!]: { config_version: 2, applied_version: 2, applied_error: '', command: null },
    });
    expect(pairs(paged.link)).toEqual(everyLink(centers, points).slice(0, 10));
    expect(paged.link_count).toBe(45);

    const other = (await t().call(networkStatus, { token: main.token, query: { network_number: number, member_page: 3 } })).data!;
    expect(other.device).toEqual({});
    expect(pairs(other.link)).toEqual(everyLink(centers, points).slice(36));
  });

  it('answers one member’s view with router_name: its links paged, their count and how many are up', async () => {
    const { main, centers, points, number } = await bigNetwork(t());
    const status = async (query: Record<string, unknown>) => (await t().call(networkStatus, { token: main.token, query: { network_number: number, ...query } as never })).data!;

    const center = await status({ router_name: centers[0]!.toUpperCase(), link_page: 2, page_size: 5 });
    expect(center).toMatchObject({ link_count: 23, link_up: 3, online: { [centers[0]!]: 0 }, device: {} });
    expect(pairs(center.link)).toEqual(points.slice(5, 10).map((p) => [p, centers[0]]));

    const second = await status({ router_name: centers[1]! });
    expect(second).toMatchObject({ link_count: 22, link_up: 0, online: { [centers[1]!]: 1 } });
    expect(second.link).toHaveLength(22);

    const point = await status({ router_name: points[0]! });
    expect(point).toMatchObject({ link_count: 2, link_up: 1, online: { [points[0]!]: 0 }, device: {} });
    expect(pairs(point.link)).toEqual(centers.map((c) => [points[0], c]));
    expect(point.link[0]).toMatchObject({ vpn_online: 1, vpn_ip: '100.64.0.9' });

    const applied = await status({ router_name: points[11]!, link_page: 1, page_size: 1 });
    expect(applied).toMatchObject({ link_count: 2, link_up: 0, device: { [points[11]!]: { config_version: 2, applied_version: 2 } } });
    expect(pairs(applied.link)).toEqual([[points[11], centers[0]]]);
    expect((await status({ router_name: points[22]! })).link_count).toBe(1);

    const stranger = await status({ router_name: 'not_a_member' });
    expect(stranger).toEqual({ network_status: expect.any(Number), link: [], link_count: 0, link_up: 0, online: {}, device: {} });
  });

  it('refuses a page or a size out of range with its message', async () => {
    const { main, number } = await bigNetwork(t());
    for (const [query, msg] of [
      [{ member_page: 0 }, BM.pageInvalid],
      [{ link_page: 'x' }, BM.pageInvalid],
      [{ member_page: 1, page_size: 101 }, BM.limitInvalid],
      [{ member_page: 1, page_size: 0 }, BM.limitInvalid],
    ] as const) {
      for (const endpoint of [networkInfo, networkStatus]) {
        const res = await t().call(endpoint, { token: main.token, query: { network_number: number, ...query } as never });
        expect({ path: endpoint.path, query, msg: res.msg, data: res.data ?? null }).toEqual({ path: endpoint.path, query, msg, data: null });
      }
    }
  });
});
