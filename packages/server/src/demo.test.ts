import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Simulation } from '@hublink/agent';
import { networkStatus } from '@hublink/contract';
import { describeEachDatabase, signIn } from '../test/helpers';
import { until } from '../test/until';
import { DEMO, ensureDemoTenant, startDemo } from './demo';

describeEachDatabase('hublink start --demo', (t) => {
  let sim: Simulation | undefined;
  let printed = '';
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void (printed += line));
    try {
      sim = await startDemo(t().app);
    } finally {
      log.mockRestore();
    }
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('prints an account that signs in, and its network goes live with the simulated devices', async () => {
    const password = /password: (\S+)/.exec(printed)?.[1];
    expect(printed).toContain(`account:  ${DEMO.username}`);
    const res = await signIn(t(), DEMO.username, password!);
    expect(res.code).toBe(200);
    const token = res.data!.access_token;
    const total = DEMO.centers.length + DEMO.points.length + DEMO.software.length;
    await until(() => sim!.counts().connected === total, 'every demo device connected', 60_000);
    await until(
      async () => {
        const s = (await t().call(networkStatus, { token, query: { network_number: DEMO.network.number } })).data;
        return s !== undefined && Object.keys(s.online).length === total && Object.values(s.online).every((o) => o === 1) && s.link.some((l) => l.vpn_online === 1);
      },
      'the demo network online with links up',
      60_000,
    );
  }, 150_000);

  it('keeps the tenant on the next start and gives it a new password', async () => {
    const again = await ensureDemoTenant(t().ctx);
    const accounts = await t().db.selectFrom('account').select('id').where('username_key', '=', DEMO.username).execute();
    expect(accounts).toHaveLength(1);
    const members = await t().db.selectFrom('member').select('id').where('tenant_id', '=', accounts[0]!.id).execute();
    expect(members).toHaveLength(again.devices.length);
    expect((await signIn(t(), DEMO.username, again.password)).code).toBe(200);
  });
}, { config: { apiRateLimitPerMinute: 1_000_000 } });
