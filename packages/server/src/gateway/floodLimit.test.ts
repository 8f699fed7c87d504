import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { DEVICE_CLOSE } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';
import { FLOOD_BASE } from './floodLimit';

const POINTS = 150;
/** What the center may send per window: every link down and up once, beyond the base. */
const CENTER_LIMIT = FLOOD_BASE + 2 * POINTS;
const POINT_LIMIT = FLOOD_BASE + 2;

/**
 * The flood limit follows what a device legitimately sends (issue 34): a center of a network of 150
 * points may send what its 150 links explain (a device older than protocol 3 reports each session
 * alone), a point of the same network only what its one center explains. Messages are counted in
 * windows; a burst sent twice over a limit is over it in at least one window, however the windows fall.
 */
describeEachDatabase('device gateway: the flood limit scales with the network', (t) => {
  it('a center sends what its links explain and stays; a point sending as much is closed; a center past its own limit is closed', async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const a = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: POINTS + 10 }).where('id', '=', a.account.id).execute();
    const [center = '', ...points] = await seedFreshMembers(t(), a.account.id, POINTS + 1);
    await createNetworkThroughApi(t(), a.token, { center: [center], point: points });
    const signedIn = async (name: string) => {
      const d = await TestDevice.open(base);
      d.send(routerHello(name, SEEDED_MEMBER_SECRET));
      await d.next('welcome');
      return d;
    };
    const burst = (d: TestDevice, n: number) => {
      for (let i = 0; i < n; i++) d.send({ type: 'ping' });
    };
    /** A point flooding: its close (4029) says a window was checked after everything sent before it. */
    const pointFloods = async (name: string) => {
      const p = await signedIn(name);
      burst(p, 2 * POINT_LIMIT + 2);
      expect(await p.closedWith()).toEqual({ code: DEVICE_CLOSE.tooManyAttempts, reason: 'too many messages' });
    };

    const c = await signedIn(center);
    burst(c, CENTER_LIMIT - 20);
    await until(() => c.received.filter((m) => m.type === 'pong').length === CENTER_LIMIT - 20, "the center's pongs");
    await pointFloods(points[0]!);
    await pointFloods(points[1]!);
    expect(c.closed).toBeUndefined();

    burst(c, 2 * CENTER_LIMIT + 2);
    expect(await c.closedWith()).toEqual({ code: DEVICE_CLOSE.tooManyAttempts, reason: 'too many messages' });
  });
});
