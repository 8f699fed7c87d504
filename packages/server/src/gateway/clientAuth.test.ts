import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { M, ROUTER_TYPE, saveDeviceApprovalSetting, type ClientAuthResultMessage } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers, seedNetwork } from '../../test/networks';
import { syncNetworkCertificates } from '../compiler/certificates';

/**
 * A center asks the gateway about a standard client (client_auth, issue 30), through a real session on
 * the gateway's WebSocket. The namespace suite (dataplane/stockClient.test.ts) proves the same with
 * OpenVPN on the wire; this covers every rule on both databases.
 */
describeEachDatabase('device gateway: judging standard clients', (t) => {
  let base: string;
  let a: Awaited<ReturnType<typeof newAccount>>;
  let b: Awaited<ReturnType<typeof newAccount>>;
  let sign = '';
  let center: TestDevice;
  let net: { id: number; network_number: string };
  let staff = '';
  let theirStaff = '';
  let seq = 0;
  const PHONE = '13912345678';

  const serialOf = async (name: string) => {
    const row = await t()
      .db.selectFrom('member_certificate as c')
      .innerJoin('member as m', 'm.id', 'c.member_id')
      .select('c.serial')
      .where('m.router_key', '=', name.toLowerCase())
      .where('c.revoked_at', 'is', null)
      .orderBy('c.id', 'desc')
      .executeTakeFirstOrThrow();
    return BigInt(`0x${row.serial}`).toString();
  };

  async function ask(fields: Record<string, unknown>): Promise<ClientAuthResultMessage> {
    const id = `q${++seq}`;
    center.send({ type: 'client_auth', id, network_number: net.network_number, common_name: staff, serial: await serialOf(staff), orig: '198.51.100.7:41000', platform: 'win', hwaddr: '0e:00:00:00:00:01', ...fields });
    return center.next('client_auth_result', (m) => m.id === id);
  }
  const reasons = async () => (await t().db.selectFrom('connect_log').select('reason').where('router_name', '=', staff).where('reason', '!=', '').execute()).map((r) => r.reason);

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    a = await newAccount(t());
    b = await newAccount(t());
    sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
    const [c = ''] = await seedFreshMembers(t(), a.account.id, 1);
    [staff = ''] = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
    [theirStaff = ''] = await seedFreshMembers(t(), b.account.id, 1, { router_type: ROUTER_TYPE.software });
    await t().db.updateTable('member').set({ phone: PHONE }).where('router_key', '=', staff.toLowerCase()).execute();
    net = await seedNetwork(t(), a.account.id, { center: [c], point: [staff] });
    const theirNet = await seedNetwork(t(), b.account.id, { point: [theirStaff] });
    await syncNetworkCertificates(t().ctx, a.account.id, net.id, new Date());
    await syncNetworkCertificates(t().ctx, b.account.id, theirNet.id, new Date());
    center = await TestDevice.open(base);
    center.send(routerHello(c, SEEDED_MEMBER_SECRET));
    await center.next('welcome');
    return () => center.close();
  });

  it('matches a serial whose first byte is below 0x10 (kept with its leading zero by the PKI)', async () => {
    const id = (await t().db.selectFrom('member').select('id').where('router_key', '=', staff.toLowerCase()).executeTakeFirstOrThrow()).id;
    const row = await t().db.selectFrom('member_certificate').select(['id', 'serial']).where('member_id', '=', id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const low = `0a${row.serial.slice(2)}`;
    await t().db.updateTable('member_certificate').set({ serial: low }).where('id', '=', row.id).execute();
    try {
      expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, serial: BigInt(`0x${low}`).toString() })).toMatchObject({ verdict: 'accept' });
    } finally {
      await t().db.updateTable('member_certificate').set({ serial: row.serial }).where('id', '=', row.id).execute();
    }
  });

  it('admits the password, or the bound phone as the user name', async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: PHONE, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: `+86 ${PHONE}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
  });

  it('refuses a wrong password, no login, a login that is not the certificate’s member, with the reason in the connect log', async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: 'wrong-one' })).toMatchObject({ verdict: 'deny', client_reason: M.clientWrongPassword });
    expect(await ask({})).toMatchObject({ verdict: 'deny', client_reason: M.clientLoginRequired });
    expect(await ask({ username: `${theirStaff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: M.clientLoginMismatch });
    expect(await reasons()).toEqual(expect.arrayContaining(['wrong password', 'no login given']));
  });

  it("refuses a certificate that is not the member's current one, and another tenant's member", async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, serial: '12345' })).toMatchObject({ verdict: 'deny', client_reason: M.clientCertificateRevoked });
    expect(await ask({ common_name: theirStaff, username: `${theirStaff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: M.clientNotInNetwork });
    // Not a network this center serves.
    expect(await ask({ network_number: 'NOTMINE00001', username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny' });
  });

  it('holds a new device of a tenant that approves devices, and admits a renegotiation without the password', async () => {
    expect((await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 1 } })).code).toBe(200);
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, hwaddr: '0e:00:00:00:00:99' })).toMatchObject({ verdict: 'deny', client_reason: M.clientAwaitingApproval });
    expect(await ask({ reauth: true })).toMatchObject({ verdict: 'accept' });
  });

  it('refuses a disabled member', async () => {
    await t().db.updateTable('member').set({ status: 0 }).where('router_key', '=', staff.toLowerCase()).execute();
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: M.clientDisabled });
    expect(await ask({ reauth: true })).toMatchObject({ verdict: 'deny', client_reason: M.clientDisabled });
  });
});
