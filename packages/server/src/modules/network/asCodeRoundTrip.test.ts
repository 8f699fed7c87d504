import {
  applyNetwork,
  CODE,
  createNetwork,
  deleteNetwork,
  editCenterGateway,
  editCenterLinkGateway,
  editIpPool,
  editPrefix,
  editRouting,
  enableCenterLink,
  exportNetwork,
  LIMITS,
  setCenterLink,
  setCiphers,
  setDefaultRoute,
  setDns,
  setFixedPort,
  setMemberOv,
  setNetworkFr,
  setPointLink,
  setQuagga,
  setSoftwareMode,
  type Endpoint,
} from '@hublink/contract';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { seedFreshMembers } from '../../../test/networks';

/*
 * Round trip (issue 36): a network built through the dialogs' own calls with random settings, exported,
 * deleted, and built again from its document alone, compiles to the same configuration for every
 * member, and exports the same document again. A setting the document forgets fails here.
 */

/** The run's members by position, and its POP resource with three areas. */
type Names = { c: string[]; p: string[]; fr: number; areas: number[] };
type Step = { endpoint: Endpoint; body: (names: Names) => Record<string, unknown> };

const CENTERS = 2;
const POINTS = 3;
const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);
const member = fc.record({ center: fc.boolean(), i: fc.nat({ max: POINTS - 1 }) });
const nameOf = (n: Names, m: { center: boolean; i: number }) => (m.center ? n.c[m.i % CENTERS]! : n.p[m.i]!);

const steps: fc.Arbitrary<Step>[] = [
  fc.subarray(['192.0.2.53', '198.51.100.53', '203.0.113.53']).map((dns) => ({ endpoint: setDns, body: () => ({ dns }) })),
  pick(['default', 'sm']).map((c) => ({ endpoint: setCiphers, body: () => ({ ncp_ciphers: c }) })),
  fc.boolean().map((swap) => ({ endpoint: editRouting, body: (n) => ({ type: 2, main_router: n.c[swap ? 1 : 0], secondary_router: n.c[swap ? 0 : 1] }) })),
  fc.constant({ endpoint: editRouting, body: () => ({ type: 1 }) }),
  fc
    .record({ m: member, model: fc.nat({ max: 2 }), metric: pick(LIMITS.defaultRouteMetrics) })
    .map(({ m, model, metric }) => ({ endpoint: setDefaultRoute, body: (n) => ({ router_name: nameOf(n, m), model, metric }) })),
  fc.record({ m: member, enable: fc.nat({ max: 1 }) }).map(({ m, enable }) => ({ endpoint: setQuagga, body: (n) => ({ router_name: nameOf(n, m), enable }) })),
  fc.record({ m: member, mode: fc.integer({ min: 1, max: 3 }) }).map(({ m, mode }) => ({ endpoint: setSoftwareMode, body: (n) => ({ router_name: nameOf(n, m), mode }) })),
  fc.record({ lans: fc.subarray([0, 1, 2, 3, 4]), deny: fc.boolean() }).map(({ lans, deny }) => ({
    endpoint: editPrefix,
    body: (n) => ({
      prefix: [
        ...lans.map((i) => ({ ip: `10.${i + 1}.0.0`, mask: 24, name: [...n.c, ...n.p][i], permission: 'permit' })),
        ...(deny ? [{ ip: '10.9.0.0', mask: 16, name: n.p[0], permission: 'deny', ge: 24, le: 32 }] : []),
      ],
    }),
  })),
  fc.record({ p: fc.nat({ max: POINTS - 1 }), centers: fc.subarray([0, 1], { minLength: 1 }) }).map(({ p, centers }) => ({
    endpoint: setPointLink,
    body: (n) => ({ link_config: { [n.p[p]!]: centers.map((i) => n.c[i]!) } }),
  })),
  fc.record({ c: fc.nat({ max: CENTERS - 1 }), soft: fc.boolean() }).map(({ c, soft }) => ({
    endpoint: editCenterGateway,
    body: (n) => ({ router_name: n.c[c], router_network: { gateway: `100.70.${c}.0`, mask: 24 }, software_network: soft ? { gateway: `100.71.${c}.0`, mask: 24 } : null }),
  })),
  fc.record({ c: fc.nat({ max: CENTERS - 1 }), port: fc.integer({ min: 20000, max: 20100 }) }).map(({ c, port }) => ({
    endpoint: setFixedPort,
    body: (n) => ({ router_name: n.c[c], router_service: { public_ip: `203.0.113.${c + 10}`, public_port: port, static_port: port }, software_service: null }),
  })),
  fc.constant({ endpoint: editCenterLinkGateway, body: () => ({ gateway: '100.66.0.0', mask: 24 }) }),
  fc.nat({ max: 1 }).map((enable) => ({ endpoint: enableCenterLink, body: () => ({ enable }) })),
  fc.nat({ max: 1 }).map((enable) => ({ endpoint: setCenterLink, body: (n) => (enable ? { enable, center_router_name: n.c[0], gateway: '100.67.0.0', mask: 24 } : { enable }) })),
  fc.boolean().map((soft) => ({ endpoint: editIpPool, body: () => ({ pop: '100.80.0.0/16', center_link_network: '', center_network: '', pop_software: soft ? '100.81.0.0/16' : '', other: '' }) })),
  fc.integer({ min: 1, max: 3 }).map((mode) => ({ endpoint: setNetworkFr, body: (n) => ({ network_fr_id: n.fr, mode }) })),
  fc.record({ m: member, main: fc.nat({ max: 2 }), backup: fc.nat({ max: 3 }) }).map(({ m, main, backup }) => ({
    endpoint: setMemberOv,
    body: (n) => ({ router_name: nameOf(n, m), ov_id_main: n.areas[main], ov_id_backup: backup === 3 || backup === main ? 0 : n.areas[backup] }),
  })),
];
/** A step, printed in a counterexample as its call and body. */
const step = fc.oneof(...steps).map((s) => ({ ...s, [fc.toStringMethod]: () => `${s.endpoint.path} ${JSON.stringify(s.body({ c: ['c0', 'c1'], p: ['p0', 'p1', 'p2'], fr: 1, areas: [1, 2, 3] }))}` }));

describeEachDatabase('networks as code: round trip (issue 36)', (getApp) => {
  let t: TestApp;
  let main: Awaited<ReturnType<typeof newAccount>>;
  beforeAll(() => {
    t = getApp();
  });
  /** Each run in a tenant of its own (a failed run's networks count against the plan's members). */
  const newTenant = async () => {
    main = await newAccount(t);
    const tenant_id = main.account.id;
    await t.db.updateTable('account').set({ auth_quagga: 1, auth_quagga_advanced: 1, auth_default_route: 1 }).where('id', '=', tenant_id).execute();
    // A POP resource as a completed order leaves it (the pop module's rows), with three areas (a backup area needs three).
    const now = Date.now();
    const fr = await t.db.insertInto('network_fr').values({ tenant_id, name: '华东POP', status: 1, create_time: now, expire_time: now + 365 * 86_400_000 }).returning('id').executeTakeFirstOrThrow();
    const areas = await t.db
      .insertInto('network_fr_area')
      .values(['上海一区', '杭州一区', '南京一区'].map((name) => ({ tenant_id, network_fr_id: fr.id, region: 'east', name, bandwidth: 10 })))
      .returning('id')
      .execute();
    return { fr: fr.id, areas: areas.map((a) => a.id) };
  };

  /** The configurations the compiler stored for the network's members (what their devices get), by member. */
  const compiled = async (number: string) => {
    await t.ctx.events.settle();
    const net = await t.db.selectFrom('network').select('id').where('network_number', '=', number).executeTakeFirstOrThrow();
    const rows = await t.db.selectFrom('member_config').select(['member_id', 'version', 'config']).where('network_id', '=', net.id).orderBy('version').execute();
    const latest = new Map(rows.map((r) => [r.member_id, r.config]));
    const configs = [...latest.values()].map((c) => JSON.parse(c) as { router_name: string; dynamic?: { community?: string } | null });
    expect(configs.length).toBeGreaterThan(0);
    // The network's number, and the BGP community made from it, are the only things of its own.
    const community = configs.find((c) => c.dynamic?.community)?.dynamic?.community;
    let text = JSON.stringify(configs.sort((a, b) => a.router_name.localeCompare(b.router_name))).replaceAll(number, 'N');
    if (community) text = text.replaceAll(`"${community}"`, '"C"');
    return text;
  };
  const exported = async (number: string) => {
    const res = await t.call(exportNetwork, { token: main.token, query: { network_number: number, format: 'yaml' } });
    expect(res.code, res.msg).toBe(CODE.ok);
    return (res.data as { document: string }).document;
  };

  it('export, delete and apply the document: the same configurations and the same document', async () => {
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(step, { minLength: 1, maxLength: 10 }), async (withPop, steps) => {
        const pop = await newTenant();
        const n: Names = { c: await seedFreshMembers(t, main.account.id, CENTERS), p: await seedFreshMembers(t, main.account.id, POINTS), ...pop };
        const made = await t.call(createNetwork, { token: main.token, body: { network_name: '往返测试', center: n.c, point: n.p } });
        expect(made.code, made.msg).toBe(CODE.ok);
        const number = (made.data as { network_number: string }).network_number;
        if (withPop) {
          // The resource first, so that the members' areas can be chosen (a pool comes before it).
          const pool = await t.call(editIpPool, { token: main.token, body: { network_number: number, pop: '100.82.0.0/16', center_link_network: '', center_network: '', pop_software: '', other: '' } });
          expect(pool.code, pool.msg).toBe(CODE.ok);
          const fr = await t.call(setNetworkFr, { token: main.token, body: { network_number: number, network_fr_id: n.fr, mode: 2 } });
          expect(fr.code, fr.msg).toBe(CODE.ok);
        }
        for (const s of steps) {
          // A step the rules refuse in this state (a second center link without a center, …) is simply not made.
          await t.call(s.endpoint, { token: main.token, body: { network_number: number, ...s.body(n) } });
        }
        const document = await exported(number);
        const before = await compiled(number);
        expect((await t.call(deleteNetwork, { token: main.token, body: { network_number: number } })).code).toBe(CODE.ok);

        const res = await t.call(applyNetwork, { token: main.token, body: { document } });
        expect(res.code, `${res.msg}\n${document}`).toBe(CODE.ok);
        const rebuilt = (res.data as { network_number: string }).network_number;
        expect(await compiled(rebuilt), document).toBe(before);
        expect(await exported(rebuilt)).toBe(document);
        const again = await t.call(applyNetwork, { token: main.token, body: { network_number: rebuilt, document } });
        expect(again.data, document).toMatchObject({ changed: false });
        applied++;
      }),
      { numRuns: Number(process.env.AS_CODE_RUNS ?? 12) },
    );
    expect(applied).toBeGreaterThan(0);
  }, 300_000);
});
