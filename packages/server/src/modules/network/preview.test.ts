import { auditList, CODE, editPrefix, listNetworkVersions, M, previewNetworkChange, setCiphers, setDns, setPointLink, type AuditEntry, type NetworkVersionItem, type PreviewAnswer, type PreviewablePath } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';

/**
 * A tenant with both feature flags and a network of two centers (c[0], c[1]) and two points (p[0],
 * p[1]), each with a /24 LAN, in dual-primary routing (the default).
 */
async function tenantWith(t: TestApp) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set({ auth_quagga: 1, auth_quagga_advanced: 1, auth_default_route: 1 }).where('id', '=', main.account.id).execute();
  const c = await seedFreshMembers(t, main.account.id, 2);
  const p = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: c, point: p });
  const lans = [...c, ...p].map((name, i) => ({ ip: `10.${i + 1}.0.0`, mask: 24, name, permission: 'permit' }));
  const res = await t.call(editPrefix, { token: main.token, body: { network_number: net.network_number, prefix: lans } });
  expect(res.code, res.msg).toBe(CODE.ok);
  await t.ctx.events.settle();
  return { main, c, p, net, lans };
}

/** Everything a change could write: the network tables, versions, audit entries and pending rows, events. */
async function written(t: TestApp) {
  return {
    ...(await networkTables(t)),
    prefixes: await t.db.selectFrom('network_prefix').selectAll().orderBy('id').execute(),
    versions: await t.db.selectFrom('network_version').select(['id']).orderBy('id').execute(),
    audit: await t.db.selectFrom('audit_entry').select(['id']).orderBy('id').execute(),
    pending: await t.db.selectFrom('audit_pending').select(['scope_id']).execute(),
    events: await t.db.selectFrom('event').select(['id']).orderBy('id').execute(),
  };
}

describeEachDatabase('network settings preview (issue 36)', (getApp) => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof tenantWith>>;
  beforeAll(async () => {
    t = getApp();
    s = await tenantWith(t);
  });

  const previewOf = async (path: PreviewablePath, body: Record<string, unknown>, opts: { token?: string; ip?: string; network?: string } = {}) =>
    t.call(previewNetworkChange, { token: opts.token ?? s.main.token, ip: opts.ip, body: { network_number: opts.network ?? s.net.network_number, path, body } });

  it("names the pairs a change cuts off, with where their packets stop, and changes nothing", async () => {
    const before = await written(t);
    // p[1]'s LAN goes from the prefix list: nobody reaches it any more.
    const res = await previewOf(editPrefix.path, { prefix: s.lans.filter((l) => l.name !== s.p[1]) });
    expect(res.code, res.msg).toBe(CODE.ok);
    const answer = res.data as PreviewAnswer;
    const lost = answer.reach!.filter((r) => !r.gained && r.state === '');
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.filter((r) => r.to.prefix === '10.4.0.0/24').map((r) => r.from).sort()).toEqual([...s.c, s.p[0]!].sort());
    // A removed member (none here) has no paths; every other lost pair says where its packets stop.
    expect(lost.every((r) => r.stop !== null), JSON.stringify(lost)).toBe(true);
    expect(answer.members.map((m) => m.router_name).sort()).toEqual([...s.c, ...s.p].sort());
    expect(answer.member_count).toBe(4);
    expect(answer.viewer).toBeNull();
    expect(await written(t)).toEqual(before);
  });

  it('answers a harmless change with no reachability change, and one that changes every member with all of them', async () => {
    const dns = await previewOf(setDns.path, { dns: ['10.1.0.53'] });
    expect(dns.code, dns.msg).toBe(CODE.ok);
    expect((dns.data as PreviewAnswer).reach).toEqual([]);
    expect((dns.data as PreviewAnswer).member_count).toBe(4);
    // The same ciphers as now: nothing changes at all.
    const same = await previewOf(setCiphers.path, { ncp_ciphers: 'default' });
    expect(same.code, same.msg).toBe(CODE.ok);
    expect(same.data).toMatchObject({ members: [], member_count: 0, reach: [], reach_count: 0 });
  });

  it("warns when the change cuts off the member the caller's connection comes from", async () => {
    const cut = await previewOf(editPrefix.path, { prefix: s.lans.filter((l) => l.name !== s.p[1]) }, { ip: '10.4.0.77' });
    expect((cut.data as PreviewAnswer).viewer).toEqual({ router_name: s.p[1], cut: true });
    const harmless = await previewOf(setDns.path, { dns: ['10.1.0.53'] }, { ip: '10.4.0.77' });
    expect((harmless.data as PreviewAnswer).viewer).toEqual({ router_name: s.p[1], cut: false });
  });

  it("answers the call's own refusals, and refuses what is not a previewable call", async () => {
    const before = await written(t);
    const bad = await previewOf(setDns.path, { dns: ['not-an-address'] });
    const real = await t.call(setDns, { token: s.main.token, body: { network_number: s.net.network_number, dns: ['not-an-address'] } });
    expect([bad.code, bad.msg]).toEqual([real.code, real.msg]);
    const stranger = await previewOf(setPointLink.path, { link_config: { nobody: [s.c[0]] } });
    const strangerReal = await t.call(setPointLink, { token: s.main.token, body: { network_number: s.net.network_number, link_config: { nobody: [s.c[0]] } } });
    expect([stranger.code, stranger.msg]).toEqual([strangerReal.code, strangerReal.msg]);
    expect(stranger.code).not.toBe(CODE.ok);
    const odd = await t.call(previewNetworkChange, { token: s.main.token, body: { network_number: s.net.network_number, path: '/network/delete', body: {} } });
    expect([odd.code, odd.msg]).toEqual([CODE.invalid, M.previewCallInvalid]);
    expect(await written(t)).toEqual(before);
  });

  it("keeps to the caller's tenant and role", async () => {
    const other = await newAccount(t);
    const foreign = await previewOf(setDns.path, { dns: ['10.1.0.53'] }, { token: other.token });
    const foreignReal = await t.call(setDns, { token: other.token, body: { network_number: s.net.network_number, dns: ['10.1.0.53'] } });
    expect([foreign.code, foreign.msg]).toEqual([foreignReal.code, foreignReal.msg]);
    expect(foreign.data ?? null).toBeNull();
    // A sub-account whose role may not edit networks may not preview their changes.
    const viewer = await ramToken(t, s.main.account.id, { ...FULL_ROLE, 'easylink.network': { create: 1, edit: 0, delete: 1, network: [] } });
    const refused = await previewOf(setDns.path, { dns: ['10.1.0.53'] }, { token: viewer });
    expect(refused.code).toBe(CODE.forbidden);
  });
  // Last: it saves the change the first test previewed.
  it('saves the change with the same list in its version and its audit entry', async () => {
    const body = { prefix: s.lans.filter((l) => l.name !== s.p[1]) };
    const previewed = (await previewOf(editPrefix.path, body)).data as PreviewAnswer;
    const { viewer: _viewer, ...expected } = previewed;
    const saved = await t.call(editPrefix, { token: s.main.token, body: { network_number: s.net.network_number, ...body } });
    expect(saved.code, saved.msg).toBe(CODE.ok);
    await t.ctx.events.settle();
    const versions = await t.call(listNetworkVersions, { token: s.main.token, query: { network_number: s.net.network_number, page: 1, limit: 10 } });
    const latest = (versions.data as NetworkVersionItem[])[0]!;
    expect(latest.effect).toEqual(expected);
    expect(latest.effect!.reach!.some((r) => !r.gained && r.to.prefix === '10.4.0.0/24')).toBe(true);
    const entries = await t.call(auditList, { token: s.main.token, query: { page: 1, limit: 10 } });
    const entry = (entries.data as AuditEntry[]).find((e) => e.path === editPrefix.path)!;
    expect(entry.effect).toEqual(expected);
    // A call that is not a network setting has none; a version older than the effect (the first) neither.
    expect((versions.data as NetworkVersionItem[]).at(-1)!.effect).toBeNull();
  });
});
