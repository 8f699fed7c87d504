import {
  auditList,
  CODE,
  editCenterGateway,
  editRouting,
  editCenterLinkGateway,
  editPrefix,
  enableCenterLink,
  fmt,
  getCenterLinkNetwork,
  getPointLink,
  getPrefix,
  getRouting,
  M,
  networkInfo,
  rollbackNetwork,
  setCenterLink,
  setFixedPort,
  setPointLink,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';
import type { RoleAuth } from '../../core/actor';

type Main = Awaited<ReturnType<typeof newAccount>>;
type Net = { id: number; network_number: string };

/** A tenant with the dynamic-routing flags, a network of two centers c[] and two points p[], a spare member and a network of one center. */
async function tenantWith(t: TestApp, flags = { auth_quagga: 1, auth_quagga_advanced: 1 }) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set(flags).where('id', '=', main.account.id).execute();
  const c = await seedFreshMembers(t, main.account.id, 2);
  const p = await seedFreshMembers(t, main.account.id, 2);
  const [spare, lone] = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: c, point: p });
  const single = await seedNetwork(t, main.account.id, { center: [lone!] });
  return { main, c, p, spare: spare!, lone: lone!, net, single };
}

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

const tables = async (t: TestApp) => ({ ...(await networkTables(t)), prefix: await t.db.selectFrom('network_prefix').selectAll().orderBy('id').execute() });

/** Expects a refusal with its code and message, and no change to the network tables. */
async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, code: number, msg: string) {
  const before = await tables(t);
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code, msg });
  expect(await tables(t)).toEqual(before);
}

async function accepted(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, msg: string) {
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code: 200, msg });
  return res;
}

/** How many network.changed 'settings' events the network has had, after the events settled. */
async function changesOf(t: TestApp, tenantId: number, networkId: number): Promise<number> {
  await t.ctx.events.settle();
  const rows = await t.db.selectFrom('event').select('payload').where('tenant_id', '=', tenantId).where('type', '=', 'network.changed').execute();
  return rows.map((r) => JSON.parse(r.payload) as { network_id: number; change: string }).filter((p) => p.network_id === networkId && p.change === 'settings').length;
}

const infoOf = async (t: TestApp, token: string, network_number: string) => (await t.call(networkInfo, { token, query: { network_number } })).data!;

const seg = (gateway: string, mask: number) => ({ gateway, mask });

/** Every segment call on network `n` that succeeds for the tenant of tenantWith, with its message. */
function callsOn(n: string, c: string[], p: string[]): [Endpoint, Record<string, unknown>, string][] {
  return [
    [editPrefix, { network_number: n, prefix: [{ ip: '192.168.10.0', mask: 24, name: p[0] }] }, M.saved],
    [setFixedPort, { network_number: n, router_name: c[0], router_service: { public_port: 30000, static_port: 30001 } }, M.networkSetDone],
    [editCenterGateway, { network_number: n, router_name: c[0], router_network: seg('10.30.0.0', 16), software_network: seg('10.31.0.0', 16) }, M.networkSetDone],
    [enableCenterLink, { network_number: n, enable: 1 }, M.networkSetDone],
    [editCenterLinkGateway, { network_number: n, gateway: '10.32.0.0', mask: 24 }, M.networkSetDone],
    [setCenterLink, { network_number: n, enable: 1, center_router_name: c[1], gateway: '10.33.0.0', mask: 24 }, M.networkSetDone],
    [setPointLink, { network_number: n, link_config: { [p[0]!]: [c[0]] } }, M.saved],
  ];
}

describeEachDatabase('network segments: route prefixes', (t) => {
  let main: Main;
  let p: string[];
  let spare: string;
  let net: Net;

  beforeAll(async () => {
    ({ main, p, spare, net } = await tenantWith(t()));
  });

  it('stores the list in order, corrected to each mask, and answers it; an unchanged list changes nothing', async () => {
    const n = net.network_number;
    expect((await send(t(), getPrefix, main.token, { network_number: n })).data).toEqual([]);
    const rows = [
      { ip: '192.168.1.77', mask: 24, name: p[0]!.toUpperCase(), permission: 'deny', ge: 25, le: 32 },
      { ip: '10.0.0.0', mask: '8', name: '', permission: '', ge: '', le: '' },
    ];
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: rows }, M.saved);
    const stored = [
      { ip: '192.168.1.0', mask: 24, name: p[0], permission: 'deny', ge: 25, le: 32 },
      { ip: '10.0.0.0', mask: 8, name: '', permission: 'permit', ge: null, le: null },
    ];
    expect((await send(t(), getPrefix, main.token, { network_number: n })).data).toEqual(stored);
    const events = await changesOf(t(), main.account.id, net.id);
    await accepted(t(), main.token, editPrefix, { network_number: n, prefix: stored }, M.saved);
    expect(await changesOf(t(), main.account.id, net.id)).toBe(events);

    await accepted(t(), main.token, editPrefix, { network_number: n }, M.saved);
    expect((await send(t(), getPrefix, main.token, { network_number: n })).data).toEqual([]);
    expect(await changesOf(t(), main.account.id, net.id)).toBe(events + 1);
  });

  it('reads prefix[i][…] form-encoded', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/v1${editPrefix.path}`,
      payload: `network_number=${net.network_number}&prefix[0][ip]=172.16.5.1&prefix[0][mask]=16&prefix[0][permission]=permit&prefix[0][ge]=&prefix[0][le]=24`,
      headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json()).toMatchObject({ code: 200, msg: M.saved });
    expect((await send(t(), getPrefix, main.token, { network_number: net.network_number })).data).toEqual([
      { ip: '172.16.0.0', mask: 16, name: '', permission: 'permit', ge: null, le: 24 },
    ]);
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const n = net.network_number;
    const tok = main.token;
    const one = (row: Record<string, unknown>) => ({ network_number: n, prefix: [{ ip: '10.1.0.0', mask: 16, ...row }] });
    await refused(t(), tok, editPrefix, one({ ip: '' }), CODE.invalid, M.segPrefixIpRequired);
    await refused(t(), tok, editPrefix, one({ ip: '0.1.0.0' }), CODE.invalid, M.segPrefixIpInvalid);
    await refused(t(), tok, editPrefix, one({ ip: '10.1.0' }), CODE.invalid, M.segPrefixIpInvalid);
    await refused(t(), tok, editPrefix, one({ mask: 7 }), CODE.invalid, M.segPrefixMaskRange);
    await refused(t(), tok, editPrefix, one({ mask: 33 }), CODE.invalid, M.segPrefixMaskRange);
    await refused(t(), tok, editPrefix, one({ ge: 16 }), CODE.invalid, M.segPrefixMatchRange);
    await refused(t(), tok, editPrefix, one({ ge: 20, le: 18 }), CODE.invalid, M.segPrefixMatchRange);
    await refused(t(), tok, editPrefix, one({ le: 33 }), CODE.invalid, M.segPrefixMatchRange);
    await refused(t(), tok, editPrefix, one({ permission: 'allow' }), CODE.invalid, M.segPrefixPermissionInvalid);
    await refused(t(), tok, editPrefix, one({ name: spare }), CODE.invalid, M.networkMemberNotIn);
    await refused(t(), tok, editPrefix, { network_number: n, prefix: [{ ip: '10.1.2.3', mask: 16 }, { ip: '10.1.0.0', mask: 16 }] }, CODE.invalid, M.segPrefixRepeat);
    const many = Array.from({ length: 101 }, (_, i) => ({ ip: `10.${i}.0.0`, mask: 16 }));
    await refused(t(), tok, editPrefix, { network_number: n, prefix: many }, CODE.invalid, fmt(M.segPrefixTooMany, { n: 100 }));
  });

  it('needs auth.quagga, and keeps permission, ge and le only with auth.quagga_advanced', async () => {
    const plain = await tenantWith(t(), { auth_quagga: 1, auth_quagga_advanced: 0 });
    const n = plain.net.network_number;
    await accepted(t(), plain.main.token, editPrefix, { network_number: n, prefix: [{ ip: '10.1.0.0', mask: 16, permission: 'deny', ge: 20, le: 24 }] }, M.saved);
    expect((await send(t(), getPrefix, plain.main.token, { network_number: n })).data).toEqual([{ ip: '10.1.0.0', mask: 16, name: '', permission: 'permit', ge: null, le: null }]);

    const none = await tenantWith(t(), { auth_quagga: 0, auth_quagga_advanced: 1 });
    await refused(t(), none.main.token, editPrefix, { network_number: none.net.network_number, prefix: [] }, CODE.forbidden, M.networkQuaggaNotOpen);
  });
});

describeEachDatabase('network segments: a center’s fixed ports', (t) => {
  it('stores both services (blank ones as none) and shows them on the detail', async () => {
    const { main, c, net } = await tenantWith(t());
    const n = net.network_number;
    await accepted(
      t(),
      main.token,
      setFixedPort,
      { network_number: n, router_name: c[0], router_service: { public_ip: '203.0.113.5', public_port: '30000', static_port: 30001 }, software_service: { public_ip: '', public_port: '', static_port: '' } },
      M.networkSetDone,
    );
    const info = await infoOf(t(), main.token, n);
    expect(info.member.find((m) => m.router_name === c[0])!.fixed_port).toEqual({ router: { public_ip: '203.0.113.5', public_port: 30000, static_port: 30001 }, software: null });
    expect(info.member.find((m) => m.router_name === c[1])!.fixed_port).toEqual({ router: null, software: null });
    const events = await changesOf(t(), main.account.id, net.id);
    await accepted(t(), main.token, setFixedPort, { network_number: n, router_name: c[0], router_service: { public_ip: '203.0.113.5', public_port: 30000, static_port: 30001 } }, M.networkSetDone);
    expect(await changesOf(t(), main.account.id, net.id)).toBe(events);
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const { main, c, p, net } = await tenantWith(t());
    const n = net.network_number;
    const call = (router_service: unknown, software_service: unknown = null, router_name: string = c[0]!) => ({ network_number: n, router_name, router_service, software_service });
    await refused(t(), main.token, setFixedPort, call({ public_ip: '203.0.113.5' }), CODE.invalid, '公网端口不能为空！');
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000 }), CODE.invalid, '本地端口不能为空！');
    await refused(t(), main.token, setFixedPort, call({ public_port: 1024, static_port: 30000 }), CODE.invalid, M.segPortRange);
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000, static_port: 65536 }), CODE.invalid, M.segPortRange);
    await refused(t(), main.token, setFixedPort, call({ public_ip: '203.0.113', public_port: 30000, static_port: 30001 }), CODE.invalid, M.segPublicIpInvalid);
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000, static_port: 30001 }, { public_port: 30002, static_port: 30001 }), CODE.invalid, M.segLocalPortSame);
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000, static_port: 30001 }, { public_port: 30000, static_port: 30002 }), CODE.invalid, M.segPublicSame);
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000, static_port: 30001 }, null, p[0]), CODE.invalid, M.segCenterOnly);
    await refused(t(), main.token, setFixedPort, call({ public_port: 30000, static_port: 30001 }, null, 'nosuchmember'), CODE.invalid, M.networkMemberNotIn);
  });
});

describeEachDatabase('network segments: center segments, interconnect and the network’s pools', (t) => {
  it('stores a center’s segments, and keeps every segment of the network apart and off its pools', async () => {
    const { main, c, p, net } = await tenantWith(t());
    const n = net.network_number;
    const tok = main.token;
    const center = (name: string, router: object, software: object) => ({ network_number: n, router_name: name, router_network: router, software_network: software });
    await accepted(t(), tok, editCenterGateway, center(c[0]!.toUpperCase(), seg('10.10.0.0', 16), { gateway: '10.11.0.0', mask: '24' }), M.networkSetDone);
    // Each segment carries the center's note (spec 2 §3 Member.gateway center_router_name_note).
    const note = (await infoOf(t(), tok, n)).member.find((m) => m.router_name === c[0])!.note;
    const noted = (gateway: string, mask: number) => ({ ...seg(gateway, mask), center_router_name_note: note });
    expect((await infoOf(t(), tok, n)).member.find((m) => m.router_name === c[0])!.gateway).toEqual({ router: noted('10.10.0.0', 16), software: noted('10.11.0.0', 24) });
    // Its own segments may be saved again or moved.
    await accepted(t(), tok, editCenterGateway, center(c[0]!, seg('10.10.0.0', 16), seg('10.11.0.0', 24)), M.networkSetDone);

    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('', 16), seg('10.21.0.0', 16)), CODE.invalid, M.segGatewayRequired);
    // Only the hardware clients' segment is required (spec 2 §5): the software one may be absent, null or blank.
    await refused(t(), tok, editCenterGateway, { network_number: n, router_name: c[1]!, software_network: seg('10.21.0.0', 16) }, CODE.invalid, M.segGatewayRequired);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 16), { gateway: '10.21.0.0' }), CODE.invalid, M.segMaskRange);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0', 16), seg('10.21.0.0', 16)), CODE.invalid, M.segGatewayInvalid);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.1', 16), seg('10.21.0.0', 16)), CODE.invalid, M.segGatewayFormat);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 25), seg('10.21.0.0', 16)), CODE.invalid, M.segMaskRange);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 15), seg('10.22.0.0', 16)), CODE.invalid, M.segMaskRange);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 16), seg('10.20.1.0', 24)), CODE.invalid, M.segSoftwareSame);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.11.0.0', 24), seg('10.21.0.0', 16)), CODE.invalid, M.segOverlap);
    await refused(t(), tok, editCenterGateway, center(p[0]!, seg('10.20.0.0', 16), seg('10.21.0.0', 16)), CODE.invalid, M.segCenterOnly);

    await accepted(t(), tok, editCenterLinkGateway, { network_number: n, gateway: '10.40.0.0', mask: 24 }, M.networkSetDone);
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 16), seg('10.40.0.0', 16)), CODE.invalid, M.segOverlap);
    await refused(t(), tok, editCenterLinkGateway, { network_number: n, gateway: '10.10.128.0', mask: 24 }, CODE.invalid, M.segOverlap);
    await refused(t(), tok, editCenterLinkGateway, { network_number: n, gateway: '10.41.0.1', mask: 24 }, CODE.invalid, M.segGatewayFormat);
    await refused(t(), tok, editCenterLinkGateway, { network_number: n, gateway: '', mask: 24 }, CODE.invalid, M.segGatewayRequired);

    await t().db.updateTable('network').set({ ip_pool: JSON.stringify({ center_network: '10.64.0.0/10', pop: '' }) }).where('id', '=', net.id).execute();
    await refused(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 16), seg('10.70.0.0', 16)), CODE.invalid, M.segOverlapPool);
    await refused(t(), tok, editCenterLinkGateway, { network_number: n, gateway: '10.127.0.0', mask: 24 }, CODE.invalid, M.segOverlapPool);
    await accepted(t(), tok, editCenterGateway, center(c[1]!, seg('10.20.0.0', 16), seg('10.21.0.0', 16)), M.networkSetDone);
    expect((await infoOf(t(), tok, n)).network_interconnect).toEqual({ enable: 0, segment: seg('10.40.0.0', 24) });
  });

  it('turns center interconnect on with two centers and off again', async () => {
    const { main, net, single } = await tenantWith(t());
    const n = net.network_number;
    await accepted(t(), main.token, enableCenterLink, { network_number: n, enable: '1' }, M.networkSetDone);
    expect((await infoOf(t(), main.token, n)).network_interconnect.enable).toBe(1);
    await accepted(t(), main.token, enableCenterLink, { network_number: n, enable: 0 }, M.networkSetDone);
    expect((await infoOf(t(), main.token, n)).network_interconnect.enable).toBe(0);
    await refused(t(), main.token, enableCenterLink, { network_number: n, enable: 2 }, CODE.invalid, M.segEnableInvalid);
    await refused(t(), main.token, enableCenterLink, { network_number: single.network_number, enable: 1 }, CODE.invalid, M.segLinkCenters);
    await accepted(t(), main.token, enableCenterLink, { network_number: single.network_number, enable: 0 }, M.networkSetDone);
  });
});

describeEachDatabase('network segments: twin-center link', (t) => {
  it('enables it through a public address or a segment, answers it, and disables it keeping what was set', async () => {
    const { main, c, net } = await tenantWith(t());
    const n = net.network_number;
    const empty = { gateway: '', mask: 0, public_ip: '', public_port: 0, static_port: 0, center_router_name: '', line_mode: 1 };
    expect((await send(t(), getCenterLinkNetwork, main.token, { network_number: n })).data).toEqual(empty);

    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[1]!.toUpperCase(), public_ip: '198.51.100.7', public_port: '40000', static_port: 40001, gateway: '', mask: '' }, M.networkSetDone);
    const link = { gateway: '', mask: 0, public_ip: '198.51.100.7', public_port: 40000, static_port: 40001, center_router_name: c[1], line_mode: 1 };
    expect((await send(t(), getCenterLinkNetwork, main.token, { network_number: n })).data).toEqual(link);
    let info = await infoOf(t(), main.token, n);
    expect([info.network_center_link, info.network_center_link_network]).toEqual([1, link]);

    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 0 }, M.networkSetDone);
    info = await infoOf(t(), main.token, n);
    expect([info.network_center_link, info.network_center_link_network]).toEqual([0, link]);

    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[0], gateway: '10.50.0.0', mask: 24 }, M.networkSetDone);
    expect((await send(t(), getCenterLinkNetwork, main.token, { network_number: n })).data).toEqual({ ...empty, gateway: '10.50.0.0', mask: 24, center_router_name: c[0] });
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const { main, c, p, net, single, lone } = await tenantWith(t());
    const n = net.network_number;
    const on = (v: object) => ({ network_number: n, enable: 1, ...v });
    await refused(t(), main.token, setCenterLink, on({ gateway: '10.50.0.0', mask: 24 }), CODE.invalid, M.segServerRequired);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0] }), CODE.invalid, M.segLinkGatewayRequired);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], public_ip: '198.51.100.7' }), CODE.invalid, M.segPublicPortRequired);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], public_ip: '198.51.100.7', public_port: 40000 }), CODE.invalid, M.segLocalPortRequired);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], public_ip: '198.51.100', public_port: 40000, static_port: 40001 }), CODE.invalid, M.segPublicIpInvalid);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], public_ip: '198.51.100.7', public_port: 80, static_port: 40001 }), CODE.invalid, M.segPortRange);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], gateway: '10.50.0.1', mask: 24 }), CODE.invalid, M.segGatewayFormat);
    await refused(t(), main.token, setCenterLink, on({ center_router_name: p[0], gateway: '10.50.0.0', mask: 24 }), CODE.invalid, M.segCenterOnly);
    await refused(t(), main.token, setCenterLink, { ...on({ center_router_name: lone, gateway: '10.50.0.0', mask: 24 }), network_number: single.network_number }, CODE.invalid, M.segLinkCenters);
    for (const line_mode of [0, 3, 'x', 1.5]) {
      await refused(t(), main.token, setCenterLink, on({ center_router_name: c[0], gateway: '10.50.0.0', mask: 24, line_mode }), CODE.invalid, M.segLineModeInvalid);
    }
    // A refused link sets no line mode either.
    await refused(t(), main.token, setCenterLink, on({ center_router_name: p[0], gateway: '10.50.0.0', mask: 24, line_mode: 2 }), CODE.invalid, M.segCenterOnly);
  });
});

describeEachDatabase('network segments: the twin-center line mode is the network’s line main/backup', (t) => {
  const routingOf = async (token: string, network_number: string) => (await t().call(getRouting, { token, query: { network_number } })).data!;
  const versionsOf = async (networkId: number) => t().db.selectFrom('network_version').select(['version', 'summary', 'snapshot']).where('network_id', '=', networkId).orderBy('version').execute();
  /** The audit entries of /network/center_link, newest first, once the events are delivered. */
  const auditOf = async (token: string) => {
    await t().ctx.events.settle();
    return (await t().call(auditList, { token, query: { limit: 100 } })).data!.filter((e) => e.path === setCenterLink.path);
  };

  it('sets main-backup with the server as the main line in the link’s change, one version and one audit entry, and dual primary again', async () => {
    const { main, c, net } = await tenantWith(t());
    const n = net.network_number;
    const link = { network_number: n, enable: 1, center_router_name: c[1], gateway: '10.50.0.0', mask: 24 };
    await accepted(t(), main.token, setCenterLink, link, M.networkSetDone);
    const events = await changesOf(t(), main.account.id, net.id);
    const versions = (await versionsOf(net.id)).length;
    const entries = (await auditOf(main.token)).length;

    await accepted(t(), main.token, setCenterLink, { ...link, line_mode: '2' }, M.networkSetDone);
    expect(await routingOf(main.token, n)).toEqual({ type: 2, main_router: c[1], secondary_router: c[0] });
    const info = await infoOf(t(), main.token, n);
    expect(info.network_center_link_network.line_mode).toBe(2);
    expect(info.member.filter((m) => m.member_type === 'center').map((m) => [m.router_name, m.routing])).toEqual([
      [c[0], 2],
      [c[1], 1],
    ]);
    expect((await send(t(), getCenterLinkNetwork, main.token, { network_number: n })).data).toMatchObject({ center_router_name: c[1], line_mode: 2 });
    expect(await changesOf(t(), main.account.id, net.id)).toBe(events + 1);
    const after = await versionsOf(net.id);
    expect(after).toHaveLength(versions + 1);
    expect(JSON.parse(after.at(-1)!.snapshot)).toMatchObject({ routing_type: 2, routing_secondary: c[0] });
    const audit = await auditOf(main.token);
    expect(audit).toHaveLength(entries + 1);
    const networkChange = audit[0]!.changes.find((ch) => ch.table === 'network')!;
    expect(networkChange.fields).toContainEqual({ field: 'routing_type', before: 1, after: 2 });
    expect(audit[0]!.changes.filter((ch) => ch.table === 'network_member')).toHaveLength(1);

    // The same again changes nothing; the 线路主备 dialog reads what the link set.
    await accepted(t(), main.token, setCenterLink, { ...link, line_mode: 2 }, M.networkSetDone);
    expect(await changesOf(t(), main.account.id, net.id)).toBe(events + 1);
    expect(await versionsOf(net.id)).toHaveLength(versions + 1);

    // Off ignores the line mode; dual primary makes every center a main line again.
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 0, line_mode: 1 }, M.networkSetDone);
    expect((await routingOf(main.token, n)).type).toBe(2);
    await accepted(t(), main.token, setCenterLink, { ...link, line_mode: 1 }, M.networkSetDone);
    expect(await routingOf(main.token, n)).toEqual({ type: 1, main_router: '', secondary_router: '' });
    expect((await infoOf(t(), main.token, n)).member.filter((m) => m.member_type === 'center').map((m) => m.routing)).toEqual([1, 1]);
    // Without a line mode the link leaves the routing as it is.
    await accepted(t(), main.token, editRouting, { network_number: n, type: 2, main_router: c[0], secondary_router: c[1] }, M.networkSetDone);
    await accepted(t(), main.token, setCenterLink, { ...link, gateway: '10.51.0.0' }, M.networkSetDone);
    expect(await routingOf(main.token, n)).toEqual({ type: 2, main_router: c[0], secondary_router: c[1] });
  });

  it('with more than two centers, takes the first other center to have joined as the backup line', async () => {
    const main = await newAccount(t());
    const c = await seedFreshMembers(t(), main.account.id, 3);
    const net = await seedNetwork(t(), main.account.id, { center: c });
    await accepted(t(), main.token, setCenterLink, { network_number: net.network_number, enable: 1, center_router_name: c[2], gateway: '10.50.0.0', mask: 24, line_mode: 2 }, M.networkSetDone);
    expect(await routingOf(main.token, net.network_number)).toEqual({ type: 2, main_router: c[2], secondary_router: c[0] });
    await accepted(t(), main.token, setCenterLink, { network_number: net.network_number, enable: 1, center_router_name: c[0], gateway: '10.50.0.0', mask: 24, line_mode: 2 }, M.networkSetDone);
    expect(await routingOf(main.token, net.network_number)).toEqual({ type: 2, main_router: c[0], secondary_router: c[1] });
  });

  it('rolls back with the history to the routing and link before', async () => {
    const { main, c, net } = await tenantWith(t());
    const n = net.network_number;
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[0], gateway: '10.50.0.0', mask: 24 }, M.networkSetDone);
    const before = (await versionsOf(net.id)).at(-1)!.version;
    await accepted(t(), main.token, setCenterLink, { network_number: n, enable: 1, center_router_name: c[1], gateway: '10.50.0.0', mask: 24, line_mode: 2 }, M.networkSetDone);
    expect((await t().call(rollbackNetwork, { token: main.token, body: { network_number: n, version: before } })).msg).toBe(fmt(M.histRollbackDone, { n: before }));
    expect(await routingOf(main.token, n)).toEqual({ type: 1, main_router: '', secondary_router: '' });
    expect((await infoOf(t(), main.token, n)).network_center_link_network).toMatchObject({ center_router_name: c[0], line_mode: 1 });
  });
});

describeEachDatabase('network segments: point links', (t) => {
  it('links every point to every center by default, and stores the chosen centers', async () => {
    const { main, c, p, net } = await tenantWith(t());
    const n = net.network_number;
    const all = { [p[0]!]: c, [p[1]!]: c };
    expect((await send(t(), getPointLink, main.token, { network_number: n })).data).toEqual({ link_config: all });
    await accepted(t(), main.token, setPointLink, { network_number: n, link_config: { [p[0]!.toUpperCase()]: [c[1], c[1]] } }, M.saved);
    expect((await send(t(), getPointLink, main.token, { network_number: n })).data).toEqual({ link_config: { [p[0]!]: [c[1]], [p[1]!]: c } });
    // A point left out goes back to every center.
    await accepted(t(), main.token, setPointLink, { network_number: n, link_config: {} }, M.saved);
    expect((await send(t(), getPointLink, main.token, { network_number: n })).data).toEqual({ link_config: all });
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const { main, c, p, spare, net } = await tenantWith(t());
    const n = net.network_number;
    await refused(t(), main.token, setPointLink, { network_number: n, link_config: { [p[0]!]: [] } }, CODE.invalid, M.segPointLinkCentersRequired);
    await refused(t(), main.token, setPointLink, { network_number: n, link_config: { [c[0]!]: [c[1]] } }, CODE.invalid, M.segPointLinkNotPoint);
    await refused(t(), main.token, setPointLink, { network_number: n, link_config: { [p[0]!]: [p[1]] } }, CODE.invalid, M.segPointLinkNotCenter);
    await refused(t(), main.token, setPointLink, { network_number: n, link_config: { [p[0]!]: [spare] } }, CODE.invalid, M.networkMemberNotIn);
    await refused(t(), main.token, setPointLink, { network_number: n, link_config: { [spare]: [c[0]] } }, CODE.invalid, M.networkMemberNotIn);
  });
});

const role = (network: Partial<RoleAuth['easylink.network']>): RoleAuth => ({
  ...FULL_ROLE,
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [], ...network },
});

describeEachDatabase('network segments: who may change them', (t) => {
  let main: Main;
  let c: string[];
  let p: string[];
  let net: Net;
  let single: Net;

  beforeAll(async () => {
    ({ main, c, p, net, single } = await tenantWith(t()));
  });

  const reads = (_n: string): Endpoint[] => [getPrefix, getCenterLinkNetwork, getPointLink];

  it('lets a sub-account without the edit right read and change nothing', async () => {
    const token = await ramToken(t(), main.account.id, role({ create: 1, delete: 1 }));
    for (const e of reads(net.network_number)) expect(await send(t(), e, token, { network_number: net.network_number })).toMatchObject({ code: 200 });
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), token, e, input, CODE.forbidden, M.deniedPermission);
  });

  it('refuses a role limited to other networks, and lets a sub-account with the edit right on this one change it', async () => {
    const other = await ramToken(t(), main.account.id, role({ edit: 1, network: [single.network_number] }));
    for (const e of reads(net.network_number)) await refused(t(), other, e, { network_number: net.network_number }, CODE.forbidden, M.deniedNetwork);
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), other, e, input, CODE.forbidden, M.deniedNetwork);

    const editor = await ramToken(t(), main.account.id, role({ edit: 1, network: [net.network_number] }));
    const before = await changesOf(t(), main.account.id, net.id);
    for (const [e, input, msg] of callsOn(net.network_number, c, p)) await accepted(t(), editor, e, input, msg);
    expect(await changesOf(t(), main.account.id, net.id)).toBe(before + callsOn(net.network_number, c, p).length);
  });

  it('answers another tenant as if the network did not exist', async () => {
    const b = await newAccount(t());
    await t().db.updateTable('account').set({ auth_quagga: 1, auth_quagga_advanced: 1 }).where('id', '=', b.account.id).execute();
    for (const e of reads(net.network_number)) await refused(t(), b.token, e, { network_number: net.network_number }, CODE.notFound, M.networkNotFound);
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), b.token, e, input, CODE.notFound, M.networkNotFound);
  });

  it('refuses every change while the network is disabled, and reads it all the same', async () => {
    await t().db.updateTable('account').set({ network_router_count: 2 }).where('id', '=', main.account.id).execute();
    try {
      for (const e of reads(net.network_number)) expect(await send(t(), e, main.token, { network_number: net.network_number })).toMatchObject({ code: 200 });
      for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), main.token, e, input, CODE.invalid, M.networkSettingsDisabled);
    } finally {
      await t().db.updateTable('account').set({ network_router_count: 10 }).where('id', '=', main.account.id).execute();
    }
  });
});

describeEachDatabase('network segments: the software clients’ segment of a center is optional', (t) => {
  it('stores none when it is absent, null or blank, and the hardware one with the center’s note', async () => {
    const { main, c, net } = await tenantWith(t());
    const n = net.network_number;
    for (const software of [undefined, null, { gateway: '', mask: 24 }, { gateway: '  ' }]) {
      const body = { network_number: n, router_name: c[0]!, router_network: seg('10.60.0.0', 16), ...(software === undefined ? {} : { software_network: software }) };
      await accepted(t(), main.token, editCenterGateway, body, M.networkSetDone);
      const m = (await infoOf(t(), main.token, n)).member.find((x) => x.router_name === c[0])!;
      expect(m.gateway).toEqual({ router: { ...seg('10.60.0.0', 16), center_router_name_note: m.note }, software: null });
    }
  });
});
