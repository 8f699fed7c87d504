import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { DEVICE_FEATURES, DEVICE_PROTOCOL, ROUTER_TYPE } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';

/**
 * A rolling upgrade (docs/decisions.md): a center on an agent older than client authentication gets its
 * software service without `management-client-auth` (it would never answer it) and a software point
 * without `auth-user-pass`; the same members on a current agent get the full files.
 */
describeEachDatabase('device gateway: configurations for older agents', (t) => {
  it('leaves out the client-authentication lines for a protocol-1 device, and only for it', async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const a = await newAccount(t());
    const [center = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const [staff = ''] = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
    await createNetworkThroughApi(t(), a.token, { center: [center], point: [staff] });
    await t().ctx.events.settle();
    const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;

    const filesOf = async (hello: object) => {
      const d = await TestDevice.open(base);
      try {
        d.send(hello);
        const w = await d.next('welcome');
        return { protocol: w.protocol, text: w.configs.flatMap((c) => Object.values(c.openvpn)).join('\n') };
      } finally {
        d.close();
        await t().ctx.events.settle();
      }
    };
    const appHello = (protocol: number) => ({ type: 'hello', protocol, kind: 'app', login: `${staff}@${sign}`, secret: SEEDED_MEMBER_SECRET, version: '1.0.0', os: 'linux' });

    expect(DEVICE_PROTOCOL.current).toBeGreaterThanOrEqual(DEVICE_FEATURES.clientAuth);
    const oldCenter = await filesOf(routerHello(center, SEEDED_MEMBER_SECRET, { protocol: 1 }));
    const newCenter = await filesOf(routerHello(center, SEEDED_MEMBER_SECRET, { protocol: DEVICE_PROTOCOL.current }));
    expect(oldCenter.protocol).toBe(1);
    expect(newCenter.protocol).toBe(DEVICE_PROTOCOL.current);
    expect(newCenter.text).toMatch(/^management-client-auth$/m);
    expect(oldCenter.text).not.toMatch(/management-client-auth/);
    // Everything else is the same file.
    expect(oldCenter.text).toBe(newCenter.text.replace(/^(management-client-auth|auth-user-pass-optional)\n/gm, ''));

    const oldPoint = await filesOf(appHello(1));
    const newPoint = await filesOf(appHello(DEVICE_PROTOCOL.current));
    expect(newPoint.text).toMatch(/^auth-user-pass auth\.txt$/m);
    expect(newPoint.text).toMatch(/^auth-nocache$/m);
    expect(oldPoint.text).not.toMatch(/auth-user-pass|auth-nocache/);
    expect(oldPoint.text).toMatch(/^verify-x509-name /m);
  });
});
