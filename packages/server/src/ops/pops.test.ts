import { frConfig, frOv, listFr, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { ops } from '../../test/ops';
import { startOfDay } from '../core/time';

type Main = Awaited<ReturnType<typeof newAccount>>;

const popTables = async (t: TestApp) => ({
  fr: await t.db.selectFrom('network_fr').selectAll().orderBy('id').execute(),
  areas: await t.db.selectFrom('network_fr_area').selectAll().orderBy('id').execute(),
});

/** Runs a command that must be refused with this code and first line, changing no POP resource or area. */
async function refused(t: TestApp, argv: string[], code: number, message: string) {
  const before = await popTables(t);
  const res = await ops(t, argv);
  expect({ argv, code: res.code, err: res.err.split('\n')[0] }).toEqual({ argv, code, err: message });
  expect(await popTables(t)).toEqual(before);
}

/** `pops create` for the tenant; answers the resource's id. */
async function made(t: TestApp, main: Main, name = '运维POP', expire = '2099-12-31') {
  const res = await ops(t, ['pops', 'create', main.username, '--name', name, '--expire', expire, '--json']);
  expect(res.code, res.err).toBe(0);
  return res.json<{ id: number }>().id;
}

async function areaAdded(t: TestApp, frId: number, args: string[]) {
  const res = await ops(t, ['pops', 'area-add', String(frId), ...args, '--json']);
  expect(res.code, res.err).toBe(0);
  return res.json<{ id: number }>().id;
}

describeEachDatabase('hublink ops pops', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('create makes a valid resource without an order, announced as pop.created, which the tenant lists', async () => {
    const id = await made(t(), a, '运维POP', '2099-12-31');
    const row = await t().db.selectFrom('network_fr').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: a.account.id, name: '运维POP', status: 1, ticket_id: null, expire_time: startOfDay('2099-12-31', t().ctx.config.timezone) });
    const events = await t().db.selectFrom('event').select('payload').where('type', '=', 'pop.created').where('tenant_id', '=', a.account.id).execute();
    expect(events.map((e) => JSON.parse(e.payload) as unknown)).toContainEqual({ tenant_id: a.account.id, network_fr_id: id, network_number: null });
    const listed = await t().call(listFr, { token: a.token, query: { page: 1 } });
    expect(listed.data!.find((r) => r.network_fr_id === id)).toMatchObject({ name: '运维POP', status: 1, area: [], network: [] });
    expect((await t().call(frConfig, { token: a.token })).data!.map((c) => c.network_fr_id)).toContain(id);

    const processing = await ops(t(), ['pops', 'create', String(a.account.id), '--name', '处理中', '--expire', '2099-01-01T08:00:00+08:00', '--status', '0', '--json']);
    expect(processing.code, processing.err).toBe(0);
    const p = await t().db.selectFrom('network_fr').selectAll().where('id', '=', processing.json<{ id: number }>().id).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ status: 2, expire_time: Date.parse('2099-01-01T00:00:00Z') });
    expect((await t().call(frConfig, { token: a.token })).data!.map((c) => c.network_fr_id)).not.toContain(p.id);
  });

  it('create refuses bad input, a past expiry and an unknown tenant', async () => {
    await refused(t(), ['pops', 'create', a.username, '--expire', '2099-01-01'], 2, '--name: --name is required');
    await refused(t(), ['pops', 'create', a.username, '--name', 'x'.repeat(65), '--expire', '2099-01-01'], 2, '--name: the name has at most 64 characters');
    await refused(t(), ['pops', 'create', a.username, '--name', 'p', '--expire', '2099-02-30'], 2, '--expire: expire must be a date (YYYY-MM-DD), an ISO 8601 time with its offset, now, or +N d/m/y (+30d, +1y)');
    await refused(t(), ['pops', 'create', a.username, '--name', 'p', '--expire', '2099-01-01', '--status', '2'], 2, '--status: status must be 0 or 1');
    await refused(t(), ['pops', 'create', a.username, '--name', 'p', '--expire', '2020-01-01'], 1, 'the expiry must be in the future');
    await refused(t(), ['pops', 'create', 'nobody-here', '--name', 'p', '--expire', '2099-01-01'], 1, 'no tenant nobody-here');
  });

  it('area-add adds an area a region, named after it unless named, which the tenant sees', async () => {
    const id = await made(t(), a);
    const south = await areaAdded(t(), id, ['--region', 'south', '--bandwidth', '100', '--host', 'pop-sz.example.net', '--port', '1195']);
    const intl = await areaAdded(t(), id, ['--region', 'intl', '--bandwidth', '20', '--name', '香港', '--host', '2001:db8::1']);
    const north = await areaAdded(t(), id, ['--region', 'north', '--bandwidth', '100000']);
    const rows = await t().db.selectFrom('network_fr_area').select(['id', 'tenant_id', 'region', 'name', 'bandwidth', 'host', 'port']).where('network_fr_id', '=', id).orderBy('id').execute();
    expect(rows).toEqual([
      { id: south, tenant_id: a.account.id, region: 'south', name: '华南', bandwidth: 100, host: 'pop-sz.example.net', port: 1195 },
      { id: intl, tenant_id: a.account.id, region: 'intl', name: '香港', bandwidth: 20, host: '2001:db8::1', port: 1194 },
      { id: north, tenant_id: a.account.id, region: 'north', name: '华北', bandwidth: 100000, host: '', port: 1194 },
    ]);
    const listed = await t().call(listFr, { token: a.token, query: { page: 1 } });
    expect(listed.data!.find((r) => r.network_fr_id === id)!.area).toEqual([
      { name: '华南', bandwidth: 100 },
      { name: '香港', bandwidth: 20 },
      { name: '华北', bandwidth: 100000 },
    ]);

    await refused(t(), ['pops', 'area-add', String(id), '--region', 'south', '--bandwidth', '5'], 1, `POP resource ${id} already has an area in south (area ${south})`);
    await refused(t(), ['pops', 'area-add', '99999999', '--region', 'east', '--bandwidth', '5'], 1, 'no POP resource 99999999');
    await refused(t(), ['pops', 'area-add', String(id), '--region', 'mars', '--bandwidth', '5'], 2, `--region: ${M.ticketPopInvalid} (south, north, east, intl)`);
    await refused(t(), ['pops', 'area-add', String(id), '--region', 'east', '--bandwidth', '0'], 2, '--bandwidth: bandwidth must be at least 1');
    await refused(t(), ['pops', 'area-add', String(id), '--region', 'east', '--bandwidth', '100001'], 2, '--bandwidth: bandwidth must be at most 100000');
    await refused(t(), ['pops', 'area-add', String(id), '--region', 'east', '--bandwidth', '5', '--port', '1195'], 2, '--port: give --port together with --host');
    await refused(t(), ['pops', 'area-add', String(id), '--region', 'east', '--bandwidth', '5', '--host', 'a b'], 2, '--host: the host is a DNS name or an IP address');
    await refused(t(), ['pops', 'area-add', 'x', '--region', 'east', '--bandwidth', '5'], 2, '<pop-id>: pop-id must be a whole number');
  });

  it('area-remove deletes an area no member dials and refuses one a network member dials', async () => {
    const id = await made(t(), a);
    const south = await areaAdded(t(), id, ['--region', 'south', '--bandwidth', '50']);
    const east = await areaAdded(t(), id, ['--region', 'east', '--bandwidth', '50']);
    const north = await areaAdded(t(), id, ['--region', 'north', '--bandwidth', '50']);
    const members = await seedFreshMembers(t(), a.account.id, 2);
    const net = await seedNetwork(t(), a.account.id, { center: [members[0]!], point: [members[1]!] });
    await t().db.updateTable('network').set({ network_fr_id: id }).where('id', '=', net.id).execute();
    await t().db.updateTable('network_member').set({ ov_main: south, ov_backup: east }).where('network_id', '=', net.id).execute();

    const message = `2 network member(s) dial area ${south} (network ${net.network_number}): move them to another area first`;
    await refused(t(), ['pops', 'area-remove', String(south)], 1, message);
    await refused(t(), ['pops', 'area-remove', String(east)], 1, message.replace(`area ${south}`, `area ${east}`));
    await refused(t(), ['pops', 'area-remove', '99999999'], 1, 'no POP area 99999999');
    await refused(t(), ['pops', 'area-remove', '0'], 2, '<area-id>: area-id must be at least 1');

    const removed = await ops(t(), ['pops', 'area-remove', String(north)]);
    expect([removed.code, removed.out.trim()], removed.err).toEqual([0, `area ${north} removed from POP resource ${id}`]);
    const ov = await t().call(frOv, { token: a.token, query: { network_number: net.network_number } });
    expect(ov.data!.map((x) => x.id)).toEqual([south, east]);
  });

  it('renew moves the expiry the tenant sees; a past date, a bad date or an unknown resource is refused', async () => {
    const id = await made(t(), b, '续期', '2030-01-01');
    const res = await ops(t(), ['pops', 'renew', String(id), '--expire', '2100-06-30']);
    expect(res.code, res.err).toBe(0);
    const expire = startOfDay('2100-06-30', t().ctx.config.timezone);
    const listed = await t().call(listFr, { token: b.token, query: { page: 1 } });
    expect(listed.data!.find((r) => r.network_fr_id === id)!.expire_time).toBe(Math.floor(expire / 1000));

    await refused(t(), ['pops', 'renew', String(id), '--expire', '2001-01-01'], 1, 'the expiry must be in the future');
    await refused(t(), ['pops', 'renew', String(id), '--expire', 'soon'], 2, '--expire: expire must be a date (YYYY-MM-DD), an ISO 8601 time with its offset, now, or +N d/m/y (+30d, +1y)');
    await refused(t(), ['pops', 'renew', String(id)], 2, '--expire: expire is required');
    await refused(t(), ['pops', 'renew', '99999999', '--expire', '2100-01-01'], 1, 'no POP resource 99999999');
  });

  it('list shows the resources with their areas and networks, one tenant’s with --tenant', async () => {
    const c = await newAccount(t());
    const id = await made(t(), c, '列表');
    const area = await areaAdded(t(), id, ['--region', 'east', '--bandwidth', '30', '--host', '10.0.0.1']);
    const members = await seedFreshMembers(t(), c.account.id, 1);
    const net = await seedNetwork(t(), c.account.id, { center: [members[0]!] });
    await t().db.updateTable('network').set({ network_fr_id: id }).where('id', '=', net.id).execute();

    const res = await ops(t(), ['pops', 'list', '--tenant', c.username, '--json']);
    expect(res.code, res.err).toBe(0);
    expect(res.json()).toEqual([
      {
        id,
        tenant: c.username,
        name: '列表',
        status: 'valid',
        expires: expect.stringMatching(/^2099-12-31 00:00:00$/),
        days_left: expect.any(Number),
        areas: `${area}:east/华东/30M@10.0.0.1:1194`,
        networks: net.network_number,
        source: 'operator',
      },
    ]);
    const all = (await ops(t(), ['pops', 'list', '--json'])).json<{ tenant: string }[]>();
    expect(new Set(all.map((r) => r.tenant))).toEqual(new Set([a.username, b.username, c.username]));
    expect((await ops(t(), ['pops', 'list', '--limit', '1', '--json'])).json<{ id: number }[]>().map((r) => r.id)).toEqual([id]);
    const bad = await ops(t(), ['pops', 'list', '--limit', '0']);
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, '--limit: limit must be at least 1']);
  });
});
