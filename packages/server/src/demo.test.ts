import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Simulation } from '@hublink/agent';
import {
  auditList,
  downloadVersion,
  listAnnouncements,
  listFr,
  listMessages,
  listNetworkVersions,
  listRam,
  listRoles,
  listServices,
  listSupportTickets,
  listTickets,
  M,
  networkStatus,
  saasRouters,
  type Endpoint,
} from '@hublink/contract';
import { describeEachDatabase, signIn } from '../test/helpers';
import { until } from '../test/until';
import { DEMO, ensureDemoTenant, seedDemo, startDemo } from './demo';

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

  /** Each list a first visitor opens, as the console asks for it: [the call, its query, how many rows it has]. */
  const screens = (): [string, Endpoint, Record<string, unknown>][] => [
    ['配置历史', listNetworkVersions, { network_number: DEMO.network.number }],
    ['SaaS设备', saasRouters, {}],
    ['POP资源', listFr, {}],
    ['公告', listAnnouncements, {}],
    ['消息', listMessages, {}],
    ['服务', listServices, {}],
    ['客服工单', listSupportTickets, {}],
    ['网络工单', listTickets, {}],
    ['审计日志', auditList, {}],
    ['角色', listRoles, {}],
    ['子账号', listRam, {}],
  ];
  const counts = async (token: string) => {
    await t().ctx.events.settle();
    const out: Record<string, number> = {};
    for (const [name, endpoint, query] of screens()) {
      const res = await t().call(endpoint, { token, query });
      expect(res.code, `${name}: ${res.msg}`).toBe(200);
      const rows = res.data as unknown[];
      // The SaaS list is grouped by category: its devices are what counts.
      out[name] = endpoint === saasRouters ? (rows as { list: unknown[] }[]).reduce((n, g) => n + g.list.length, 0) : rows.length;
    }
    return out;
  };

  it('fills every screen a first visitor opens: no list is empty', async () => {
    const password = /password: (\S+)/.exec(printed)?.[1];
    const token = (await signIn(t(), DEMO.username, password!)).data!.access_token;
    const seen = await counts(token);
    for (const [name, n] of Object.entries(seen)) expect(n, name).toBeGreaterThan(0);
    // The network's history is real: created, then two settings committed through the settings calls.
    const history = (await t().call(listNetworkVersions, { token, query: { network_number: DEMO.network.number } })).data!;
    expect(history.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(history[2]!.summary).toBe(M.histCreated);
    expect(history.every((v) => v.who_kind === 'main')).toBe(true);
    // Client releases for every platform on the download page.
    const releases = (await t().call(downloadVersion, {})).data!;
    expect([releases.windows, releases.macos, releases.android, releases.ios].every((r) => r !== null)).toBe(true);
    expect(releases.linux.length).toBeGreaterThan(0);
  });

  it('does not fill a kept tenant twice', async () => {
    const again = await ensureDemoTenant(t().ctx);
    const token = (await signIn(t(), DEMO.username, again.password)).data!.access_token;
    const before = await counts(token);
    await seedDemo(t().app, again.tenantId);
    const after = await counts(token);
    expect(after).toEqual(before);
  });

  it('keeps the tenant on the next start and gives it a new password', async () => {
    const again = await ensureDemoTenant(t().ctx);
    const accounts = await t().db.selectFrom('account').select('id').where('username_key', '=', DEMO.username).execute();
    expect(accounts).toHaveLength(1);
    const members = await t().db.selectFrom('member').select('id').where('tenant_id', '=', accounts[0]!.id).execute();
    expect(members).toHaveLength(again.devices.length);
    expect((await signIn(t(), DEMO.username, again.password)).code).toBe(200);
  });
}, { config: { apiRateLimitPerMinute: 1_000_000 } });
