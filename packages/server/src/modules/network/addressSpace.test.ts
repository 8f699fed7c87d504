import {
  CODE,
  editCenterGateway,
  editCenterLinkGateway,
  editIpPool,
  editPrefix,
  fmt,
  getPrefix,
  M,
  setCenterLink,
  type Endpoint,
} from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';

/**
 * The VPN's addresses and the members' LANs kept apart (addressSpace.ts): a route prefix may not lie
 * in a VPN segment of its network (a center's segments, the interconnect and twin-center segments, the
 * pools the compiler allocates from, the defaults where a pool is unset), and none of those may be
 * saved over a prefix. Each refusal names both sides and changes nothing; the neighbours are accepted.
 */

/** A tenant with dynamic routing, and a network of two centers and a point. */
async function tenantWith(t: TestApp) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set({ auth_quagga: 1, auth_quagga_advanced: 1 }).where('id', '=', main.account.id).execute();
  const c = (await seedFreshMembers(t, main.account.id, 2)) as [string, string];
  const [p] = (await seedFreshMembers(t, main.account.id, 1)) as [string];
  const net = await seedNetwork(t, main.account.id, { center: c, point: [p] });
  return { main, c, p, net, n: net.network_number };
}

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) => t.call(e, { token, body: input });

const tables = async (t: TestApp) => ({
  ...(await networkTables(t)),
  prefix: await t.db.selectFrom('network_prefix').selectAll().orderBy('id').execute(),
  versions: await t.db.selectFrom('network_version').selectAll().orderBy('id').execute(),
});

async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, msg: string) {
  const before = await tables(t);
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code: CODE.invalid, msg });
  expect(await tables(t)).toEqual(before);
}

async function accepted(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, msg: string) {
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code: 200, msg });
}

const seg = (gateway: string, mask: number) => ({ gateway, mask });
const vpnOverlap = (prefix: string, what: string, segment: string) => fmt(M.segPrefixOverlapVpn, { prefix, what, segment });
const defaultPool = (label: string) => fmt(M.segWhatDefaultPool, { label });

describeEachDatabase('address space: route prefixes keep out of the VPN', (t) => {
  it('refuses a prefix in a default pool while that pool is unset, and accepts the addresses around the VPN space', async () => {
    const { main, p, n } = await tenantWith(t());
    const one = (ip: string, mask: number, row: object = {}) => ({ network_number: n, prefix: [{ ip, mask, name: p, ...row }] });
    await refused(t(), main.token, editPrefix, one('100.64.5.0', 24), vpnOverlap('100.64.5.0/24', defaultPool(M.popPoolCenter), '100.64.0.0/12'));
    await refused(t(), main.token, editPrefix, one('100.80.0.0', 16), vpnOverlap('100.80.0.0/16', defaultPool(M.popPoolPop), '100.80.0.0/12'));
    await refused(t(), main.token, editPrefix, one('100.100.0.0', 16), vpnOverlap('100.100.0.0/16', defaultPool(M.popPoolPopSoftware), '100.96.0.0/12'));
    await refused(t(), main.token, editPrefix, one('100.127.3.0', 24), vpnOverlap('100.127.3.0/24', defaultPool(M.popPoolCenterLink), '100.127.0.0/16'));
    // Every row counts: a deny row, a row of no member, a row that covers the whole space.
    await refused(t(), main.token, editPrefix, one('100.64.0.0', 16, { permission: 'deny' }), vpnOverlap('100.64.0.0/16', defaultPool(M.popPoolCenter), '100.64.0.0/12'));
    await refused(t(), main.token, editPrefix, one('100.65.0.0', 16, { name: '' }), vpnOverlap('100.65.0.0/16', defaultPool(M.popPoolCenter), '100.64.0.0/12'));
    await refused(t(), main.token, editPrefix, one('100.0.0.0', 8), vpnOverlap('100.0.0.0/8', defaultPool(M.popPoolPop), '100.80.0.0/12'));
    // The second row of a list is checked like the first.
    await refused(
      t(),
      main.token,
      editPrefix,
      { network_number: n, prefix: [{ ip: '192.168.1.0', mask: 24, name: p }, { ip: '100.64.9.0', mask: 24 }] },
      vpnOverlap('100.64.9.0/24', defaultPool(M.popPoolCenter), '100.64.0.0/12'),
    );

    const around = [
      { ip: '100.63.255.0', mask: 24, name: p },
      { ip: '100.128.0.0', mask: 16, name: p },
      { ip: '10.0.0.0', mask: 8, name: p },
    ];
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: around }, M.saved);
    expect((await t().call(getPrefix, { token: main.token, query: { network_number: n } })).data!.map((r) => `${r.ip}/${r.mask}`)).toEqual(['100.63.255.0/24', '100.128.0.0/16', '10.0.0.0/8']);
  });

  it('refuses a prefix in a center’s segments, the interconnect or twin-center segment or a set pool; a set pool frees its default', async () => {
    const { main, c, p, n } = await tenantWith(t());
    await accepted(t(), main.token, editCenterGateway, { network_number: n, router_name: c[0], router_network: seg('10.30.0.0', 16), software_network: seg('10.31.0.0', 24) }, M.networkSetDone);
    await accepted(t(), main.token, editCenterLinkGateway, { network_number: n, gateway: '10.32.0.0', mask: 24 }, M.networkSetDone);
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[1], gateway: '10.33.0.0', mask: 24 }, M.networkSetDone);
    await accepted(t(), main.token, editIpPool, { network_number: n, center_network: '10.64.0.0/16', other: '10.65.0.0/16' }, M.saved);

    const one = (ip: string, mask: number) => ({ network_number: n, prefix: [{ ip, mask, name: p }] });
    await refused(t(), main.token, editPrefix, one('10.30.5.0', 24), vpnOverlap('10.30.5.0/24', fmt(M.segWhatCenterRouter, { name: c[0] }), '10.30.0.0/16'));
    await refused(t(), main.token, editPrefix, one('10.31.0.0', 16), vpnOverlap('10.31.0.0/16', fmt(M.segWhatCenterSoftware, { name: c[0] }), '10.31.0.0/24'));
    await refused(t(), main.token, editPrefix, one('10.32.0.128', 25), vpnOverlap('10.32.0.128/25', M.segWhatInterconnect, '10.32.0.0/24'));
    await refused(t(), main.token, editPrefix, one('10.33.0.0', 16), vpnOverlap('10.33.0.0/16', M.segWhatCenterLink, '10.33.0.0/24'));
    await refused(t(), main.token, editPrefix, one('10.64.1.0', 24), vpnOverlap('10.64.1.0/24', fmt(M.segWhatPool, { label: M.popPoolCenter }), '10.64.0.0/16'));
    await refused(t(), main.token, editPrefix, one('10.65.1.0', 24), vpnOverlap('10.65.1.0/24', fmt(M.segWhatPool, { label: M.popPoolOther }), '10.65.0.0/16'));
    await refused(t(), main.token, editPrefix, one('100.80.1.0', 24), vpnOverlap('100.80.1.0/24', defaultPool(M.popPoolPop), '100.80.0.0/12'));

    // Neighbours of each, and the center pool's default, no longer in use.
    const rows = ['10.30.0.0/17', '10.29.0.0/16', '10.31.1.0/24', '10.32.1.0/24', '10.33.1.0/24', '10.66.0.0/16', '100.64.5.0/24'].map((cidr) => {
      const [ip, mask] = cidr.split('/');
      return { ip: ip!, mask: Number(mask), name: p };
    });
    await refused(t(), main.token, editPrefix, { network_number: n, prefix: rows }, vpnOverlap('10.30.0.0/17', fmt(M.segWhatCenterRouter, { name: c[0] }), '10.30.0.0/16'));
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: rows.slice(1) }, M.saved);
  });
});

describeEachDatabase('address space: VPN segments and pools keep off the route prefixes', (t) => {
  it('refuses a center segment, the interconnect and the twin-center segment over a prefix, and accepts them beside it', async () => {
    const { main, c, p, n } = await tenantWith(t());
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: [{ ip: '10.1.0.0', mask: 16, name: p }, { ip: '192.168.8.0', mask: 22, name: c[1] }] }, M.saved);
    const center = (router: object, software: object) => ({ network_number: n, router_name: c[0], router_network: router, software_network: software });
    const overPrefix = (segment: string, prefix: string) => fmt(M.segOverlapPrefix, { segment, prefix });

    await refused(t(), main.token, editCenterGateway, center(seg('10.1.0.0', 24), seg('10.2.0.0', 24)), overPrefix('10.1.0.0/24', '10.1.0.0/16'));
    await refused(t(), main.token, editCenterGateway, center(seg('10.2.0.0', 24), seg('192.168.0.0', 16)), overPrefix('192.168.0.0/16', '192.168.8.0/22'));
    await refused(t(), main.token, editCenterLinkGateway, { network_number: n, gateway: '10.1.200.0', mask: 24 }, overPrefix('10.1.200.0/24', '10.1.0.0/16'));
    await refused(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[0], gateway: '192.168.9.0', mask: 24 }, overPrefix('192.168.9.0/24', '192.168.8.0/22'));

    await accepted(t(), main.token, editCenterGateway, center(seg('10.0.0.0', 16), seg('192.168.12.0', 22)), M.networkSetDone);
    await accepted(t(), main.token, editCenterLinkGateway, { network_number: n, gateway: '10.2.0.0', mask: 24 }, M.networkSetDone);
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[0], gateway: '192.168.7.0', mask: 24 }, M.networkSetDone);
  });

  it('refuses a pool that comes into use over a prefix, a cleared pool whose default covers one, and a pool over the interconnect or twin-center segment', async () => {
    const { main, c, p, net, n } = await tenantWith(t());
    await accepted(t(), main.token, editIpPool, { network_number: n, center_network: '10.200.0.0/16' }, M.saved);
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: [{ ip: '10.1.0.0', mask: 16, name: p }, { ip: '100.64.5.0', mask: 24, name: p }] }, M.saved);
    const pools = (v: object) => ({ network_number: n, center_network: '10.200.0.0/16', ...v });
    const overPrefix = (a: string, prefix: string) => fmt(M.popPoolOverlap, { a, b: fmt(M.popPoolPrefix, { prefix }) });

    await refused(t(), main.token, editIpPool, pools({ pop: '10.1.0.0/24' }), overPrefix(M.popPoolPop, '10.1.0.0/16'));
    await refused(t(), main.token, editIpPool, pools({ other: '10.1.128.0/17' }), overPrefix(M.popPoolOther, '10.1.0.0/16'));
    await refused(t(), main.token, editIpPool, pools({ center_network: '100.64.0.0/16' }), overPrefix(M.popPoolCenter, '100.64.5.0/24'));
    // Cleared, the center pool falls back to 100.64.0.0/12, where the second prefix lies.
    await refused(t(), main.token, editIpPool, { network_number: n }, overPrefix(fmt(M.popPoolDefault, { label: M.popPoolCenter, cidr: '100.64.0.0/12' }), '100.64.5.0/24'));
    await accepted(t(), main.token, editIpPool, pools({ pop: '10.2.0.0/16', other: '10.3.0.0/16' }), M.saved);

    // A prefix saved before the rule (written straight in) holds up no save that leaves its pool as it was.
    await t().db.insertInto('network_prefix').values({ tenant_id: main.account.id, network_id: net.id, position: 2, ip: '10.2.1.0', mask: 24, name: p, permission: 'permit', ge: null, le: null }).execute();
    await accepted(t(), main.token, editIpPool, pools({ pop: '10.2.0.0/16', other: '' }), M.saved);

    await accepted(t(), main.token, editCenterLinkGateway, { network_number: n, gateway: '10.40.0.0', mask: 24 }, M.networkSetDone);
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[1], gateway: '10.41.0.0', mask: 24 }, M.networkSetDone);
    await refused(t(), main.token, editIpPool, pools({ pop: '10.2.0.0/16', other: '10.40.0.0/16' }), fmt(M.popPoolOverlap, { a: M.popPoolOther, b: M.segWhatInterconnect }));
    await refused(t(), main.token, editIpPool, pools({ pop: '10.2.0.0/16', center_link_network: '10.41.0.0/24' }), fmt(M.popPoolOverlap, { a: M.popPoolCenterLink, b: M.segWhatCenterLink }));
    await accepted(t(), main.token, editIpPool, pools({ pop: '10.2.0.0/16', center_link_network: '10.42.0.0/24' }), M.saved);
  });
});
