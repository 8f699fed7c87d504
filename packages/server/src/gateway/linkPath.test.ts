import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { networkStatus } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

/*
 * Which way a point's link runs (issue 30): the point's device says, for an up link, whether it reached
 * its center directly or through a POP area's relay; the gateway keeps it with the link (member_link.path)
 * and the network's status shows it. A device that does not say (an older agent) leaves it out.
 */
describeEachDatabase('device gateway: the path of a link', (t) => {
  it('keeps the path the point reports and shows it in the network status, only while the link is up', async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const a = await newAccount(t());
    const [center = '', point = ''] = await seedFreshMembers(t(), a.account.id, 2);
    const networkNumber = await createNetworkThroughApi(t(), a.token, { center: [center], point: [point] });
    await t().ctx.events.settle();
    const d = await TestDevice.open(base);
    try {
      d.send(routerHello(point, SEEDED_MEMBER_SECRET));
      await d.next('welcome');
      const since = Math.floor(Date.now() / 1000) - 5;
      const status = async () => (await t().call(networkStatus, { token: a.token, query: { network_number: networkNumber } })).data!.link[0]!;
      const report = (extra: object, online: 0 | 1 = 1) => d.send({ type: 'status', links: [{ network_number: networkNumber, peer: center, vpn_ip: '100.64.0.6', online, since: online ? since : 0, ...extra }] });

      // An older agent says nothing of the path: nothing is shown.
      report({});
      await until(async () => (await status()).vpn_online === 1, 'the link up');
      expect(await status()).not.toHaveProperty('path');

      report({ path: 'pop', pop_area: '华南' });
      await until(async () => (await status()).path === 'pop', 'the path through the POP');
      expect(await status()).toMatchObject({ path: 'pop', pop_area: '华南', vpn_ip: '100.64.0.6' });
      const row = await t().db.selectFrom('member_link').select(['path', 'path_area']).executeTakeFirstOrThrow();
      expect(row).toEqual({ path: 'pop', path_area: '华南' });

      report({ path: 'center' });
      await until(async () => (await status()).path === 'center', 'the direct path');
      expect(await status()).not.toHaveProperty('pop_area');

      // A link that is down has no path.
      report({ path: 'center' }, 0);
      await until(async () => (await status()).vpn_online === 0, 'the link down');
      expect(await status()).not.toHaveProperty('path');

      // A path the protocol does not know is refused with the message.
      report({ path: 'satellite' });
      await until(() => d.closed !== undefined, 'the session closed for a bad message');
    } finally {
      d.close();
    }
  });
});
