import { CODE, getMemberConfig, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';

/** GET /network/member_config: a member's current configuration, within the caller's tenant and role. */
describeEachDatabase('GET /network/member_config', (t: () => TestApp) => {
  type Main = Awaited<ReturnType<typeof newAccount>>;
  let main: Main;
  let other: Main;
  let center: string;
  let point: string;
  let outsider: string;
  let net: { id: number; network_number: string };
  let otherNet: { id: number; network_number: string };

  const ask = (token: string, network_number: string, router_name: string) => t().call(getMemberConfig, { token, query: { network_number, router_name } });

  beforeAll(async () => {
    main = await newAccount(t());
    other = await newAccount(t());
    const names = await seedFreshMembers(t(), main.account.id, 3);
    [center, point, outsider] = [names[0]!, names[1]!, names[2]!];
    net = await seedNetwork(t(), main.account.id, { center: [center], point: [point] });
    const [theirs] = await seedFreshMembers(t(), other.account.id, 1);
    otherNet = await seedNetwork(t(), other.account.id, { center: [theirs!] });
  });

  it("answers a member's configuration, compiling a network not compiled yet", async () => {
    const res = await ask(main.token, net.network_number, point.toUpperCase());
    expect(res.code).toBe(CODE.ok);
    expect(res.data!.version).toBe(1);
    expect(res.data!.update_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(res.data!.config).toMatchObject({ router_name: point, member_type: 'point', network_number: net.network_number });
    expect(Object.keys(res.data!.openvpn)).toEqual([`center-${center}.conf`]);
    expect(res.data!.openvpn[`center-${center}.conf`]).toContain('remote-cert-tls server');
    // Names the key files, never carries them (the member's key, the network's tls-crypt key).
    expect(Object.keys(res.data!).sort()).toEqual(['config', 'openvpn', 'update_time', 'version']);
    expect(JSON.stringify(res)).not.toMatch(/PRIVATE KEY|OpenVPN Static key/);
  });

  it('answers the new version after a change that concerns the member', async () => {
    await t().db.updateTable('network').set({ dns: JSON.stringify(['8.8.8.8']) }).where('id', '=', net.id).execute();
    await t().ctx.events.emit(t().db, { type: 'network.changed', tenant_id: main.account.id, network_id: net.id, change: 'settings' });
    await t().ctx.events.settle();
    const res = await ask(main.token, net.network_number, center);
    expect(res.code).toBe(CODE.ok);
    expect(res.data!.version).toBe(2);
    // DNS is the agent's to apply: the configuration says it, the OpenVPN files do not change.
    expect(res.data!.config.dns).toEqual(['8.8.8.8']);
    expect(res.data!.openvpn['router.conf']).not.toContain('8.8.8.8');
  });

  it('answers 204 for an unknown network, a member outside it and an unknown member', async () => {
    expect(await ask(main.token, 'N000000000', center)).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    expect(await ask(main.token, net.network_number, outsider)).toMatchObject({ code: CODE.notFound, msg: M.memberNotFound });
    expect(await ask(main.token, net.network_number, 'nosuchmember')).toMatchObject({ code: CODE.notFound, msg: M.memberNotFound });
  });

  it("keeps tenants apart: another tenant's network is not found, nor this one for it", async () => {
    expect(await ask(main.token, otherNet.network_number, center)).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    expect(await ask(other.token, net.network_number, center)).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    expect(await t().db.selectFrom('member_config').select('id').where('network_id', '=', otherNet.id).execute()).toEqual([]);
  });

  it("answers a sub-account for its role's networks only", async () => {
    const allowed = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: [net.network_number] } });
    expect((await ask(allowed, net.network_number, center)).code).toBe(CODE.ok);
    const limited = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 0, delete: 0, network: ['N999999999'] } });
    expect(await ask(limited, net.network_number, center)).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
  });

  it('refuses a caller without a token', async () => {
    const res = await t().call(getMemberConfig, { query: { network_number: net.network_number, router_name: center } });
    expect(res.code).toBe(CODE.tokenInvalid);
  });
});
