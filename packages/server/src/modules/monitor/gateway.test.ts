import type { AddressInfo } from 'node:net';
import { fmt, listMessages, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { TestDevice, routerHello } from '../../../test/device';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../../test/networks';
import { until } from '../../../test/until';
import { monitorOn } from './fixtures';

/** The real path once: a device signs in to the gateway and leaves; the alert reaches the message centre. */
describeEachDatabase(
  'monitoring alerts from the device gateway',
  (t) => {
    let base: string;
    beforeAll(async () => {
      await t().app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    });

    it('alerts when a monitored router goes offline for longer than the window, and when it returns', async () => {
      const a = await newAccount(t());
      const [router = ''] = await seedFreshMembers(t(), a.account.id, 1);
      await monitorOn(t(), a.token, { router_online: 1, router_offline: 1, router: [router] });
      const inbox = async () => (await t().call(listMessages, { token: a.token, query: { page: 1 } })).data ?? [];

      const first = await TestDevice.open(base);
      first.send(routerHello(router, SEEDED_MEMBER_SECRET));
      const { credential } = await first.next('welcome');
      first.close();
      await until(async () => (await inbox()).some((m) => m.title === fmt(M.alertTitle, { kind: M.alertKindRouterOffline, name: router })), 'the offline alert in the message centre');

      const again = await TestDevice.open(base);
      again.send(routerHello(router, '', { secret: undefined, credential }));
      await again.next('welcome');
      await until(async () => (await inbox()).some((m) => m.title === fmt(M.alertTitle, { kind: M.alertKindRouterOnline, name: router })), 'the recovery alert in the message centre');
      again.close();
      expect((await inbox()).filter((m) => m.type === 'alert')).toHaveLength(2);
    });
  },
  { config: { runJobs: true, alertDebounceSeconds: 1 }, backbone: { jobPollSeconds: 0.5 } },
);
