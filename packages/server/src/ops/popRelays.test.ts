import { CODE, RELAY_LIMITS, RELAY_PATH, RELAY_TIMING } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { ops } from '../../test/ops';
import { recompileNetwork } from '../compiler/versions';

/*
 * POP relays (issue 30): `hublink ops pops relay-add/relay-list/relay-remove`, and the relay's call to
 * the device gateway (POST /api/device/v1/relay/sync): its token, its table, its load and liveness.
 */

const sync = (t: TestApp, token: string | null, body: unknown = { sessions: 2, bytes_in: 100, bytes_out: 200, version: 't' }, ip = '192.0.2.50') =>
  t.app.inject({ method: 'POST', url: RELAY_PATH, remoteAddress: ip, headers: token === null ? {} : { authorization: `Bearer ${token}` }, payload: body as object });

describeEachDatabase('POP relays', (t) => {
  let main: Awaited<ReturnType<typeof newAccount>>;
  let frId: number;
  let areaId: number;
  let center: string;
  let net: { id: number; network_number: string };

  beforeAll(async () => {
    main = await newAccount(t());
    const fr = await ops(t(), ['pops', 'create', main.username, '--name', '中继', '--expire', '2099-12-31', '--json']);
    frId = fr.json<{ id: number }>().id;
    const area = await ops(t(), ['pops', 'area-add', String(frId), '--region', 'south', '--bandwidth', '10', '--host', '203.0.113.5', '--port', '40000', '--json']);
    areaId = area.json<{ id: number }>().id;
    const [c, p] = (await seedFreshMembers(t(), main.account.id, 2)) as [string, string];
    center = c;
    net = await seedNetwork(t(), main.account.id, { center: [c], point: [p] });
    await t().db.updateTable('member').set({ router_ipv4: '198.51.100.9' }).where('router_name', '=', c).execute();
    await t().db.updateTable('network').set({ network_fr_id: frId }).where('id', '=', net.id).execute();
    await t().db.updateTable('network_member').set({ ov_main: areaId, mode: 3 }).where('network_id', '=', net.id).where('member_type', '=', 'point').execute();
    await recompileNetwork(t().ctx, main.account.id, net.id);
  });

  it('relay-add prints a token once and keeps only its hash; the relay gets its table with it and reports its load', async () => {
    const added = await ops(t(), ['pops', 'relay-add', String(areaId), '--name', 'gz-1', '--json']);
    expect(added.code, added.err).toBe(0);
    const { id, token } = added.json<{ id: number; token: string }>();
    expect(token).toMatch(/^hlr_[A-Za-z0-9_-]{32}$/);
    const row = await t().db.selectFrom('pop_relay').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ tenant_id: main.account.id, area_id: areaId, name: 'gz-1', seen_time: null });

    const before = (await ops(t(), ['pops', 'relay-list', '--area', String(areaId), '--json'])).json<{ state: string }[]>();
    expect(before.map((r) => r.state)).toEqual(['never seen']);

    const res = await sync(t(), token);
    expect(res.statusCode).toBe(200);
    // The point's POP remote is the relay's port for its center; the relay forwards that port to the center.
    expect(res.json()).toEqual({
      code: CODE.ok,
      msg: 'success',
      data: {
        area: '华南',
        poll_seconds: RELAY_TIMING.pollSeconds,
        forwards: [
          { port: 40000, host: '198.51.100.9', target_port: 1194, label: `${net.network_number}/${center}/router` },
          { port: 40001, host: '198.51.100.9', target_port: 1195, label: `${net.network_number}/${center}/software` },
        ],
      },
    });
    const config = await t().db.selectFrom('member_config').select('config').where('network_id', '=', net.id).execute();
    const point = config.map((c) => JSON.parse(c.config) as { member_type: string; tunnels?: { remotes: unknown[] }[] }).find((c) => c.member_type === 'point')!;
    expect(point.tunnels![0]!.remotes).toEqual([
      { host: '203.0.113.5', port: 40000, via: 'pop', name: '华南' },
      { host: '198.51.100.9', port: 1194, via: 'center', name: center },
    ]);

    const listed = (await ops(t(), ['pops', 'relay-list', '--json'])).json<Record<string, unknown>[]>().find((r) => r.id === id);
    expect(listed).toMatchObject({ tenant: main.username, area: `${areaId}:华南`, name: 'gz-1', state: 'live', address: '192.0.2.50', flows: 2, bytes_in: 100, bytes_out: 200, ports: 2 });
    // Not heard from for longer than the live time: dead.
    await t().db.updateTable('pop_relay').set({ seen_time: Date.now() - (RELAY_TIMING.liveSeconds + 1) * 1000 }).where('id', '=', id).execute();
    expect((await ops(t(), ['pops', 'relay-list', '--json'])).json<Record<string, unknown>[]>().find((r) => r.id === id)).toMatchObject({ state: 'dead' });
  });

  it('a center without a known address is left out; an expired resource empties the table', async () => {
    const { token } = (await ops(t(), ['pops', 'relay-add', String(areaId), '--json'])).json<{ token: string }>();
    await t().db.updateTable('member').set({ router_ipv4: '' }).where('router_name', '=', center).execute();
    await recompileNetwork(t().ctx, main.account.id, net.id);
    expect((await sync(t(), token)).json<{ data: { forwards: unknown[] } }>().data.forwards).toEqual([]);
    await t().db.updateTable('member').set({ router_ipv4: '198.51.100.9' }).where('router_name', '=', center).execute();
    await recompileNetwork(t().ctx, main.account.id, net.id);
    expect((await sync(t(), token)).json<{ data: { forwards: unknown[] } }>().data.forwards).toHaveLength(2);
    await t().db.updateTable('network_fr').set({ expire_time: Date.now() - 1000 }).where('id', '=', frId).execute();
    expect((await sync(t(), token)).json<{ data: { forwards: unknown[] } }>().data.forwards).toEqual([]);
    await t().db.updateTable('network_fr').set({ expire_time: Date.parse('2099-12-31T00:00:00Z') }).where('id', '=', frId).execute();
  });

  it('refuses a missing, wrong or removed token (2001), a bad report (422) and too many failures from one address (429)', async () => {
    const { id, token } = (await ops(t(), ['pops', 'relay-add', String(areaId), '--json'])).json<{ id: number; token: string }>();
    for (const bad of [null, 'hlr_wrong', `${token}x`]) {
      const res = await sync(t(), bad, undefined, '192.0.2.60');
      expect([res.statusCode, res.json<{ code: number }>().code]).toEqual([401, CODE.tokenInvalid]);
    }
    expect((await sync(t(), token, { sessions: -1, bytes_in: 0, bytes_out: 0 })).json<{ code: number }>().code).toBe(CODE.invalid);
    const removed = await ops(t(), ['pops', 'relay-remove', String(id)]);
    expect(removed.code, removed.err).toBe(0);
    expect((await sync(t(), token, undefined, '192.0.2.61')).json<{ code: number }>().code).toBe(CODE.tokenInvalid);
    const again = await ops(t(), ['pops', 'relay-remove', String(id)]);
    expect([again.code, again.err.split('\n')[0]]).toEqual([1, `no POP relay ${id}`]);
    for (let i = 0; i < RELAY_LIMITS.badTokenPerIp; i++) await sync(t(), 'hlr_wrong', undefined, '192.0.2.62');
    const limited = await sync(t(), 'hlr_wrong', undefined, '192.0.2.62');
    expect([limited.statusCode, limited.json<{ code: number }>().code]).toEqual([429, CODE.tooMany]);
  });

  it('relay-add refuses an unknown area and a blank name; the relay goes with its area', async () => {
    const unknown = await ops(t(), ['pops', 'relay-add', '99999999']);
    expect([unknown.code, unknown.err.split('\n')[0]]).toEqual([1, 'no POP area 99999999']);
    const blank = await ops(t(), ['pops', 'relay-add', String(areaId), '--name', ' ']);
    expect([blank.code, blank.err.split('\n')[0]]).toEqual([2, '--name: the name may not be blank']);
    const other = (await ops(t(), ['pops', 'area-add', String(frId), '--region', 'north', '--bandwidth', '10', '--json'])).json<{ id: number }>().id;
    const { id } = (await ops(t(), ['pops', 'relay-add', String(other), '--json'])).json<{ id: number }>();
    expect((await ops(t(), ['pops', 'area-remove', String(other)])).code).toBe(0);
    expect(await t().db.selectFrom('pop_relay').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });
});
