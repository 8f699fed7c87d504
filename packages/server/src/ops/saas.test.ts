import { ROUTER_TYPE, saasInfo, saasRouters } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers } from '../../test/networks';
import { ops } from '../../test/ops';
import { formatTime, startOfDay } from '../core/time';

type Main = Awaited<ReturnType<typeof newAccount>>;

const devices = (t: TestApp) => t.db.selectFrom('saas_device').selectAll().orderBy('member_id').execute();

/** Runs a command that must be refused with this code and first line, changing no SaaS device. */
async function refused(t: TestApp, argv: string[], code: number, message: string) {
  const before = await devices(t);
  const res = await ops(t, argv);
  expect({ argv, code: res.code, err: res.err.split('\n')[0] }).toEqual({ argv, code, err: message });
  expect(await devices(t)).toEqual(before);
}

describeEachDatabase('hublink ops saas', (t) => {
  let a: Main;
  let b: Main;
  let hw: string[];
  let sw: string;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    hw = await seedFreshMembers(t(), a.account.id, 3);
    sw = (await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software }))[0]!;
  });

  it('assign makes a hardware member a SaaS device the tenant lists and views, and assigning again changes it', async () => {
    const tz = t().ctx.config.timezone;
    const res = await ops(t(), [
      'saas', 'assign', a.username, hw[0]!.toUpperCase(),
      '--category', '华东', '--bandwidth', '20', '--max', '100', '--share', '1', '--expire', '2099-12-31',
      '--temp-bandwidth', '200', '--temp-start', '2099-01-01', '--temp-expire', '2099-01-08T12:00:00+08:00',
      '--ip', '203.0.113.7', '--ip', '203.0.113.7', '--ip', '2001:db8::7',
    ]);
    expect([res.code, res.out.trim()], res.err).toEqual([0, `${hw[0]!.toUpperCase()} of tenant ${a.username} is a SaaS device (20/100 Mbs)`]);
    const groups = await t().call(saasRouters, { token: a.token, query: {} });
    expect(groups.data).toEqual([{ category: '华东', list: [{ router_name: hw[0], note: '', online: 0, bandwidth: 20, max_bandwidth: 100, share: 1 }] }]);
    const info = await t().call(saasInfo, { token: a.token, query: { router_name: hw[0]! } });
    expect(info.data).toMatchObject({
      category: '华东',
      expire_date: formatTime(startOfDay('2099-12-31', tz), tz),
      temp_bandwidth: 200,
      temp_start_date: formatTime(startOfDay('2099-01-01', tz), tz),
      temp_expire_date: formatTime(Date.parse('2099-01-08T04:00:00Z'), tz),
      ip: ['203.0.113.7', '2001:db8::7'],
    });
    const changed = await t().db.selectFrom('event').select('payload').where('type', '=', 'member.changed').where('tenant_id', '=', a.account.id).execute();
    expect(changed.map((e) => JSON.parse(e.payload) as { fields: string[] }).some((p) => p.fields.includes('bandwidth'))).toBe(true);

    const again = await ops(t(), ['saas', 'assign', String(a.account.id), hw[0]!, '--category', '', '--bandwidth', '0', '--max', '50']);
    expect(again.code, again.err).toBe(0);
    expect((await t().call(saasInfo, { token: a.token, query: { router_name: hw[0]! } })).data).toMatchObject({
      category: '',
      share: 0,
      bandwidth: 0,
      max_bandwidth: 50,
      expire_date: '',
      temp_bandwidth: 0,
      temp_start_date: '',
      temp_expire_date: '',
      ip: [],
    });
    // Another tenant sees none of it.
    expect((await t().call(saasRouters, { token: b.token, query: {} })).data).toEqual([]);
  });

  it('assign refuses bad input and what the module refuses, changing nothing', async () => {
    const base = ['saas', 'assign', a.username, hw[1]!, '--category', 'c', '--bandwidth', '10', '--max', '20'];
    await refused(t(), [...base, '--temp-bandwidth', '30'], 2, '--temp-bandwidth: give --temp-bandwidth, --temp-start and --temp-expire together, or none of them');
    await refused(t(), [...base, '--share', 'yes'], 2, '--share: share must be 0 or 1');
    await refused(t(), [...base, '--ip', '300.1.1.1'], 2, '--ip: each --ip is an IP address');
    await refused(t(), ['saas', 'assign', a.username, hw[1]!, '--category', 'c', '--bandwidth', 'ten', '--max', '20'], 2, '--bandwidth: bandwidth must be a whole number');
    await refused(t(), ['saas', 'assign', a.username, hw[1]!, '--bandwidth', '10', '--max', '20'], 2, '--category: --category is required');
    await refused(t(), [...base, '--temp-bandwidth', '30', '--temp-start', '2099-01-02', '--temp-expire', '2099-01-01'], 1, 'the temporary bandwidth must start before it ends');
    await refused(t(), ['saas', 'assign', a.username, hw[1]!, '--category', 'c', '--bandwidth', '30', '--max', '20'], 1, 'bandwidth must be between 0 and max_bandwidth');
    await refused(t(), ['saas', 'assign', a.username, sw, '--category', 'c', '--bandwidth', '10', '--max', '20'], 1, `${sw} is not a hardware member`);
    // A member of another tenant is not found under this one.
    await refused(t(), ['saas', 'assign', b.username, hw[1]!, '--category', 'c', '--bandwidth', '10', '--max', '20'], 1, `tenant ${b.account.id} has no member ${hw[1]}`);
    await refused(t(), ['saas', 'assign', 'nobody-here', hw[1]!, '--category', 'c', '--bandwidth', '10', '--max', '20'], 1, 'no tenant nobody-here');
  });

  it('list shows the devices with their bandwidth, expiry and temporary window; --tenant narrows it', async () => {
    const tz = t().ctx.config.timezone;
    const c = await newAccount(t());
    const [name] = await seedFreshMembers(t(), c.account.id, 1);
    const assigned = await ops(t(), [
      'saas', 'assign', c.username, name!, '--category', '华南', '--bandwidth', '5', '--max', '10', '--share', '1',
      '--temp-bandwidth', '50', '--temp-start', '2099-01-01', '--temp-expire', '2099-02-01',
    ]);
    expect(assigned.code, assigned.err).toBe(0);
    const res = await ops(t(), ['saas', 'list', '--tenant', c.username, '--json']);
    expect(res.code, res.err).toBe(0);
    expect(res.json()).toEqual([
      {
        router_name: name,
        tenant: c.username,
        category: '华南',
        share: 'shared',
        bandwidth: '5/10',
        expires: '',
        temporary: `50M ${formatTime(startOfDay('2099-01-01', tz), tz)} – ${formatTime(startOfDay('2099-02-01', tz), tz)}`,
      },
    ]);
    const all = (await ops(t(), ['saas', 'list', '--json'])).json<{ tenant: string }[]>();
    expect(all.map((r) => r.tenant)).toEqual(expect.arrayContaining([a.username, c.username]));
    const bad = await ops(t(), ['saas', 'list', '--limit', '1001']);
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, '--limit: limit must be at most 1000']);
  });

  it('unassign makes the device an ordinary member again; a member that is not one is refused', async () => {
    const made = await ops(t(), ['saas', 'assign', a.username, hw[2]!, '--category', '待删', '--bandwidth', '1', '--max', '1']);
    expect(made.code, made.err).toBe(0);
    const res = await ops(t(), ['saas', 'unassign', a.username, hw[2]!]);
    expect([res.code, res.out.trim()], res.err).toEqual([0, `${hw[2]} of tenant ${a.username} is no longer a SaaS device`]);
    const groups = await t().call(saasRouters, { token: a.token, query: {} });
    expect(groups.data!.flatMap((g) => g.list.map((d) => d.router_name))).not.toContain(hw[2]);
    expect(await t().db.selectFrom('member').select('id').where('router_name', '=', hw[2]!).execute()).toHaveLength(1);

    await refused(t(), ['saas', 'unassign', a.username, hw[2]!], 1, `${hw[2]} is not a SaaS device of tenant ${a.account.id}`);
    await refused(t(), ['saas', 'unassign', b.username, hw[0]!], 1, `${hw[0]} is not a SaaS device of tenant ${b.account.id}`);
    await refused(t(), ['saas', 'unassign', a.username], 2, '<router-name>: a router name is required');
  });
});
