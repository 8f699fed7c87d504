import {
  applyNetwork,
  CODE,
  editCenterLinkGateway,
  editPrefix,
  exportNetwork,
  fmt,
  M,
  networkDriftOf,
  planNetwork,
  setDns,
  type NetworkDrift,
  type PlanAnswer,
} from '@hublink/contract';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';

/** A tenant with a network of two centers and two points, each with a LAN prefix. */
async function tenantWith(t: TestApp) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set({ auth_quagga: 1, auth_quagga_advanced: 1, auth_default_route: 1 }).where('id', '=', main.account.id).execute();
  const c = await seedFreshMembers(t, main.account.id, 2);
  const p = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: c, point: p });
  const lans = [...c, ...p].map((name, i) => ({ ip: `10.${i + 1}.0.0`, mask: 24, name, permission: 'permit' }));
  const res = await t.call(editPrefix, { token: main.token, body: { network_number: net.network_number, prefix: lans } });
  expect(res.code, res.msg).toBe(CODE.ok);
  return { main, c, p, net, lans };
}

/** The network's rows and versions: what an apply or a plan could write. */
async function written(t: TestApp) {
  return {
    ...(await networkTables(t)),
    prefixes: await t.db.selectFrom('network_prefix').selectAll().orderBy('id').execute(),
    versions: await t.db.selectFrom('network_version').select(['id', 'applied']).orderBy('id').execute(),
    networks: await t.db.selectFrom('network').select(['id']).orderBy('id').execute(),
  };
}

describeEachDatabase('networks as code (issue 36)', (getApp) => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof tenantWith>>;
  beforeAll(async () => {
    t = getApp();
    s = await tenantWith(t);
  });

  const exported = async (format: 'yaml' | 'json' = 'yaml', network = s.net.network_number, token = s.main.token) => {
    const res = await t.call(exportNetwork, { token, query: { network_number: network, format } });
    expect(res.code, res.msg).toBe(CODE.ok);
    return (res.data as { document: string }).document;
  };
  /** `network` null: a new network. */
  const plan = (document: string, network: string | null = s.net.network_number, token = s.main.token) =>
    t.call(planNetwork, { token, body: { ...(network ? { network_number: network } : {}), document } });
  const apply = (document: string, network: string | null = s.net.network_number, token = s.main.token) =>
    t.call(applyNetwork, { token, body: { ...(network ? { network_number: network } : {}), document } });
  const edited = async (change: (doc: Record<string, unknown>) => void) => {
    const doc = parse(await exported()) as Record<string, unknown>;
    change(doc);
    return stringify(doc);
  };

  it('exports the network by names, YAML and JSON alike, without ids', async () => {
    const yaml = await exported('yaml');
    const json = await exported('json');
    expect(parse(yaml)).toEqual(JSON.parse(json));
    const doc = parse(yaml) as { kind: string; name: string; centers: { name: string }[]; points: { name: string }[]; prefixes: unknown[] };
    expect(doc.kind).toBe('hublink/network/v1');
    expect(doc.centers.map((m) => m.name)).toEqual(s.c);
    expect(doc.points.map((m) => m.name)).toEqual(s.p);
    expect(doc.prefixes).toHaveLength(4);
    expect(yaml).not.toMatch(/_id\b|network_number/);
  });

  it('applies an unchanged document without changing anything', async () => {
    const before = await written(t);
    const yaml = await exported();
    const p = await plan(yaml);
    expect(p.code, p.msg).toBe(CODE.ok);
    expect((p.data as PlanAnswer).changes).toEqual([]);
    const res = await apply(yaml);
    expect(res.code, res.msg).toBe(CODE.ok);
    expect(res.data).toMatchObject({ network_number: s.net.network_number, version: null, changed: false });
    expect(res.msg).toBe(M.codeNoChange);
    const after = await written(t);
    // Only the marker of the applied version moves; the network is as it was.
    expect({ ...after, versions: after.versions.map((v) => v.id) }).toEqual({ ...before, versions: before.versions.map((v) => v.id) });
    const again = await apply(yaml);
    expect(again.data).toMatchObject({ changed: false });
    expect(await written(t)).toEqual(after);
  });

  it('plans a change with its effect and changes nothing; applies it as one version', async () => {
    const doc = await edited((d) => {
      d.dns = ['192.0.2.53'];
      d.prefixes = (d.prefixes as { name: string }[]).filter((p) => p.name !== s.p[1]);
    });
    const before = await written(t);
    const p = await plan(doc);
    expect(p.code, p.msg).toBe(CODE.ok);
    const answer = p.data as PlanAnswer;
    expect(answer.changes.map((r) => r.key).sort()).toEqual(['network.dns', 'network.prefixes']);
    expect(answer.effect?.reach?.some((r) => !r.gained && r.to.prefix === '10.4.0.0/24')).toBe(true);
    expect(answer.effect?.member_count).toBe(4);
    expect(await written(t)).toEqual(before);

    const res = await apply(doc);
    expect(res.code, res.msg).toBe(CODE.ok);
    const version = (res.data as { version: number }).version;
    expect(version).toBeGreaterThan(0);
    const row = await t.db.selectFrom('network_version').select(['summary', 'applied', 'who_kind', 'effect']).where('version', '=', version).where('network_id', '=', s.net.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ summary: M.codeAppliedSummary, applied: 1, who_kind: 'main' });
    expect(JSON.parse(row.effect!)).toMatchObject({ member_count: 4 });
    expect(parse(await exported())).toEqual(parse(doc));
  });

  it('shows what was changed outside the last applied document, by whom', async () => {
    const clean = await t.call(networkDriftOf, { token: s.main.token, query: { network_number: s.net.network_number } });
    expect((clean.data as NetworkDrift).changes).toEqual([]);
    const ram = await newRamAccount(t, s.main.account.id, { auth: FULL_ROLE });
    const token = (await signIn(t, ram.login, ram.password, { ram: true })).data!.access_token;
    const res = await t.call(setDns, { token, body: { network_number: s.net.network_number, dns: ['198.51.100.53'] } });
    expect(res.code, res.msg).toBe(CODE.ok);
    const drift = (await t.call(networkDriftOf, { token: s.main.token, query: { network_number: s.net.network_number } })).data as NetworkDrift;
    expect(drift.changes.map((r) => r.key)).toEqual(['network.dns']);
    expect(drift.versions).toHaveLength(1);
    expect(drift.versions[0]!.who).toContain(ram.username);
    // plan names the drift too, and applying the document again undoes it.
    const doc = await edited((d) => {
      d.dns = ['192.0.2.53'];
    });
    const p = (await plan(doc)).data as PlanAnswer;
    expect(p.drift?.changes.map((r) => r.key)).toEqual(['network.dns']);
    expect(p.changes.map((r) => r.key)).toEqual(['network.dns']);
    expect((await apply(doc)).code).toBe(CODE.ok);
    const after = (await t.call(networkDriftOf, { token: s.main.token, query: { network_number: s.net.network_number } })).data as NetworkDrift;
    expect(after.changes).toEqual([]);
    expect(after.versions).toEqual([]);
  });

  describe('refusals name the path and change nothing', () => {
    const cases: [string, (d: Record<string, unknown>) => unknown, () => string][] = [
      ['an unknown member', (d) => ((d.points as { name: string }[])[1]!.name = 'nobody-here'), () => fmt(M.codeDocumentInvalid, { path: 'points[1].name', reason: fmt(M.codeMemberUnknown, { name: 'nobody-here' }) })],
      ['a member twice', (d) => ((d.points as { name: string }[])[1]!.name = s.c[0]!), () => fmt(M.codeDocumentInvalid, { path: 'points[1].name', reason: fmt(M.codeMemberTwice, { name: s.c[0]! }) })],
      ['an unknown POP resource', (d) => (d.pop = { resource: 'no such pop' }), () => fmt(M.codeDocumentInvalid, { path: 'pop.resource', reason: fmt(M.codePopUnknown, { name: 'no such pop' }) })],
      ['a field of the wrong type', (d) => (d.dns = 'x'), () => 'dns'],
      ['an unknown field', (d) => (d.colour = 'blue'), () => fmt(M.codeDocumentInvalid, { path: '.', reason: '' }).slice(0, 5)],
      ['a routing center that is no center', (d) => (d.routing = { type: 'main_backup', main: s.c[0], backup: s.p[0] }), () => fmt(M.codeDocumentInvalid, { path: 'routing.backup', reason: fmt(M.codeCenterUnknown, { name: s.p[0]! }) })],
      ['a service refusal', (d) => (d.dns = ['not an address']), () => 'dns：'],
    ];
    it.each(cases)('%s', async (_name, change, message) => {
      const before = await written(t);
      const doc = await edited(change as (d: Record<string, unknown>) => void);
      for (const call of [plan, apply]) {
        const res = await call(doc);
        expect(res.code).toBe(CODE.invalid);
        expect(res.msg).toContain(message());
      }
      expect(await written(t)).toEqual(before);
    });

    it('what no dialog can undo: a segment the network has, left out of the document', async () => {
      const seg = await t.call(editCenterLinkGateway, { token: s.main.token, body: { network_number: s.net.network_number, gateway: '100.66.0.0', mask: 24 } });
      expect(seg.code, seg.msg).toBe(CODE.ok);
      const before = await written(t);
      const doc = await edited((d) => {
        delete d.interconnect;
      });
      const res = await apply(doc);
      expect(res.code).toBe(CODE.invalid);
      expect(res.msg).toBe(fmt(M.codeRefused, { path: 'interconnect.segment', reason: fmt(M.histCannotRestore, { label: M.histFieldInterconnectNetwork }) }));
      expect(await written(t)).toEqual(before);
    });

    it('POP names: an area without a resource, an unknown area, a name two resources share', async () => {
      const tenant_id = s.main.account.id;
      const now = Date.now();
      const addFr = async (name: string) => {
        const fr = await t.db.insertInto('network_fr').values({ tenant_id, name, status: 1, create_time: now, expire_time: now + 86_400_000 }).returning('id').executeTakeFirstOrThrow();
        await t.db.insertInto('network_fr_area').values({ tenant_id, network_fr_id: fr.id, region: 'east', name: '上海一区', bandwidth: 10 }).execute();
      };
      await addFr('唯一POP');
      await addFr('重名POP');
      await addFr('重名POP');
      const before = await written(t);
      const cases: [(d: Record<string, unknown>) => void, string][] = [
        [(d) => ((d.points as Record<string, unknown>[])[0]!.pop_areas = { main: '上海一区' }), fmt(M.codeDocumentInvalid, { path: 'points[0].pop_areas.main', reason: M.codeAreaNeedsPop })],
        [
          (d) => {
            d.pop = { resource: '唯一POP' };
            (d.points as Record<string, unknown>[])[0]!.pop_areas = { main: '北京一区' };
          },
          fmt(M.codeDocumentInvalid, { path: 'points[0].pop_areas.main', reason: fmt(M.codeAreaUnknown, { pop: '唯一POP', name: '北京一区' }) }),
        ],
        [(d) => (d.pop = { resource: '重名POP' }), fmt(M.codeDocumentInvalid, { path: 'pop.resource', reason: fmt(M.codePopAmbiguous, { name: '重名POP' }) })],
        [(d) => (d.type = 'p2p'), fmt(M.codeDocumentInvalid, { path: 'type', reason: M.codeTypeFixed })],
      ];
      for (const [change, message] of cases) {
        const doc = await edited(change);
        for (const call of [plan, apply]) {
          const res = await call(doc);
          expect(res.msg).toBe(message);
        }
      }
      // A new network from a document is a hub network.
      const p2p = await apply(await edited((d) => (d.type = 'p2p')), null);
      expect(p2p.msg).toBe(fmt(M.codeDocumentInvalid, { path: 'type', reason: M.codeNewOnlyHub }));
      expect(await written(t)).toEqual(before);
    });

    it('unreadable text and another kind of document', async () => {
      const bad = await apply('name: [unclosed');
      expect(bad.msg).toContain(fmt(M.codeDocumentUnreadable, { reason: '' }).slice(0, 8));
      const other = await apply(stringify({ kind: 'something/else', name: 'x' }));
      expect(other.msg).toBe(fmt(M.codeKindInvalid, { kind: 'hublink/network/v1' }));
    });
  });

  it('a new network from a document on another tenant, and roles limited to networks', async () => {
    const yaml = await exported();
    const other = await newAccount(t);
    await seedFreshMembers(t, other.account.id, 0);
    // The other tenant has no such members: refused by path, nothing made.
    const refused = await apply(yaml, null, other.token);
    expect(refused.code).toBe(CODE.invalid);
    expect(refused.msg).toContain('centers[0].name');
    // A network number of another tenant is not found.
    const foreign = await plan(yaml, s.net.network_number, other.token);
    expect(foreign.code).not.toBe(CODE.ok);
  });

  it('holds a role to its networks and a read token to reading', async () => {
    const yaml = await exported();
    const other = await seedNetwork(t, s.main.account.id, { center: await seedFreshMembers(t, s.main.account.id, 1) });
    const ram = await newRamAccount(t, s.main.account.id, { auth: { ...FULL_ROLE, 'easylink.network': { create: 1, edit: 1, delete: 1, network: [other.network_number] } } });
    const token = (await signIn(t, ram.login, ram.password, { ram: true })).data!.access_token;
    for (const call of [plan, apply]) {
      expect((await call(yaml, s.net.network_number, token)).code).toBe(CODE.forbidden);
      // A role limited to networks creates none (as /network/create).
      expect((await call(yaml, null, token)).code).toBe(CODE.forbidden);
    }
    const exportedThere = await t.call(exportNetwork, { token, query: { network_number: s.net.network_number, format: 'yaml' } });
    expect(exportedThere.code).toBe(CODE.forbidden);
  });
});
