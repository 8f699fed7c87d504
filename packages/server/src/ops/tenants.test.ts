import { accountInfo, M, networkConfig } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../test/helpers';
import { ops } from '../../test/ops';

describeEachDatabase('hublink ops tenants', (t) => {
  it('create makes a main account with the default plan that signs in; a taken name or a bad password is refused', async () => {
    const name = `opsmade${Date.now() % 100000}`;
    const made = await ops(t(), ['tenants', 'create', '--username', name, '--nickname', '运维建的', '--password', 'Start1234', '--email', `${name}@example.com`, '--json']);
    expect(made.code, made.err).toBe(0);
    const { id } = made.json<{ id: number }>();
    const row = await t().db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: name, email: `${name}@example.com`, phone: null, status: 1, network_router_count: t().ctx.config.defaultPlan.network_router_count });
    expect((await signIn(t(), name, 'Start1234')).code).toBe(200);

    const before = await t().snapshot();
    const again = await ops(t(), ['tenants', 'create', '--username', name.toUpperCase(), '--nickname', '又一个', '--password', 'Start1234']);
    expect([again.code, again.err.trim()]).toEqual([1, M.usernameTaken]);
    const short = await ops(t(), ['tenants', 'create', '--username', `${name}x`, '--nickname', '又一个', '--password', '123']);
    expect(short.code).toBe(2);
    expect(short.err).toContain(`--password: ${M.passwordLength}`);
    const both = await ops(t(), ['tenants', 'create', '--username', `${name}y`, '--nickname', '又一个', '--password', 'Start1234', '--phone', '13900000001', '--email', 'a@b.cn']);
    expect(both.code).toBe(2);
    expect(await t().snapshot()).toEqual(before);
  });

  it('list finds tenants by part of their name; show tells the plan, flags and use', async () => {
    const a = await newAccount(t());
    const listed = await ops(t(), ['tenants', 'list', '--search', a.username.toUpperCase(), '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json<{ id: number }[]>().map((r) => r.id)).toEqual([a.account.id]);
    const table = await ops(t(), ['tenants', 'list', '--search', a.username]);
    expect(table.out.split('\n')[0]).toMatch(/^id\s+username\s+nickname/);
    expect(table.out).toContain(a.username);
    // The wildcard characters of LIKE are searched for, not matched with.
    expect((await ops(t(), ['tenants', 'list', '--search', '%', '--json'])).json()).toEqual([]);

    const shown = await ops(t(), ['tenants', 'show', a.username, '--json']);
    expect(shown.json()).toMatchObject({ id: a.account.id, username: a.username, status: 'enabled', members: 0, services: 0, software_auth_source: 0 });
    expect((await ops(t(), ['tenants', 'show', String(a.account.id), '--json'])).json()).toMatchObject({ username: a.username });
    const missing = await ops(t(), ['tenants', 'show', 'nobody-here']);
    expect([missing.code, missing.err.trim()]).toEqual([1, 'no tenant nobody-here']);
  });

  it('plan changes only the values given, and the console sees them', async () => {
    const a = await newAccount(t());
    const res = await ops(t(), ['tenants', 'plan', a.username, '--network-level', '2', '--network-router-count', '500', '--dns-quantity', '4', '--json']);
    expect(res.code, res.err).toBe(0);
    expect(res.json()).toMatchObject({ network_level: 2, network_router_count: 500, dns_quantity: 4, network_center_count: t().ctx.config.defaultPlan.network_center_count });
    const quota = await t().call(networkConfig, { token: a.token });
    expect(quota.data).toMatchObject({ network_level: 2, network_router_count: 500 });

    const before = await t().db.selectFrom('account').selectAll().where('id', '=', a.account.id).executeTakeFirstOrThrow();
    for (const [args, message] of [
      [['--network-level', 'two'], '--network-level: network-level must be a whole number'],
      [['--network-center-count', '0'], '--network-center-count: network-center-count must be at least 1'],
      [[], 'give at least one of the plan options'],
    ] as const) {
      const bad = await ops(t(), ['tenants', 'plan', a.username, ...args]);
      expect(bad.code).toBe(2);
      expect(bad.err.split('\n')[0]).toBe(message);
    }
    const unknown = await ops(t(), ['tenants', 'plan', a.username, '--routers', '5']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("Unknown option '--routers'");
    expect(await t().db.selectFrom('account').selectAll().where('id', '=', a.account.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('disable ends the sessions of the tenant and its sub-accounts and stops sign-in; enable lets them in again', async () => {
    const a = await newAccount(t());
    const sub = await newRamAccount(t(), a.account.id);
    const subLogin = await signIn(t(), sub.login, sub.password, { ram: true });
    expect(subLogin.code).toBe(200);
    expect((await ops(t(), ['tenants', 'disable', a.username])).code).toBe(0);
    expect((await t().call(accountInfo, { token: a.token })).code).not.toBe(200);
    expect((await t().call(accountInfo, { token: subLogin.data!.access_token })).code).not.toBe(200);
    const refused = await signIn(t(), a.username, a.password);
    expect(refused.msg).toBe(M.accountDisabled);
    expect((await ops(t(), ['tenants', 'enable', String(a.account.id)])).code).toBe(0);
    expect((await signIn(t(), a.username, a.password)).code).toBe(200);
  });

  it('config and auth set the switches the console reads from /user/message', async () => {
    const a = await newAccount(t());
    expect((await ops(t(), ['tenants', 'config', a.username, '--software-auth-source', '1'])).code).toBe(0);
    expect((await ops(t(), ['tenants', 'auth', a.username, '--quagga', '1', '--default-route', '1'])).code).toBe(0);
    const info = await t().call(accountInfo, { token: a.token });
    expect(info.data).toMatchObject({ config: { software_auth_source: 1 }, auth: { quagga: 1, quagga_advanced: 0, default_route: 1 } });

    const bad = await ops(t(), ['tenants', 'config', a.username, '--software-auth-source', 'yes']);
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, '--software-auth-source: software-auth-source must be 0 or 1']);
    const none = await ops(t(), ['tenants', 'auth', a.username]);
    expect([none.code, none.err.split('\n')[0]]).toEqual([2, 'give at least one of --quagga, --quagga-advanced, --default-route']);
  });
});
