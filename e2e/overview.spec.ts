import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshotAtWidths, signedInTenant, startServer, WAIT_MS, type Server } from './support';

const HOUR = 3_600_000;

/** Waits until the page is at this path and query. */
const expectUrl = (page: Page, pathAndSearch: string) => page.waitForURL((u) => u.pathname + u.search === pathAndSearch, { timeout: WAIT_MS });

/**
 * The dashboard's live overview (issue 18) in Chromium: the figures of a tenant whose members the test
 * puts in known states (as the gateway and the alert engine would leave them), a figure's link opening
 * the filtered member list, and a change showing without a reload at the next poll.
 */
describe('the live overview on the dashboard', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let tenantId = 0;
  const stamp = Date.now() % 1_000_000;
  const region = () => page.getByRole('region', { name: M.overviewTitle });

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page, tenantId } = await signedInTenant(server, browser, { username: `ovw${stamp}`, password: 'secret123', phone: `137${String(Date.now()).slice(-8)}`, nickname: '概况测试' }));
    await addRouters(server, page, ['gw_ovw01', 'gw_ovw02', 'gw_ovw03']);
    await postAs(server, page, '/router/add', { router_type: 2, username: 'ovw_alice', password: 'devsecret1', note: '财务部' });
    await postAs(server, page, '/network/create', { network_name: '华东办公网络', center: ['gw_ovw01'], point: ['gw_ovw02', 'ovw_alice'] });
    const db = server.ctx.db;
    const now = Date.now();
    // gw_ovw01 online; gw_ovw03 added three days ago and never seen since two days: offline longer than a day.
    await db.updateTable('member').set({ online_status: 1, online_time: now - HOUR }).where('tenant_id', '=', tenantId).where('router_key', '=', 'gw_ovw01').execute();
    await db.updateTable('member').set({ create_time: now - 72 * HOUR, online_time: now - 48 * HOUR }).where('tenant_id', '=', tenantId).where('router_key', '=', 'gw_ovw03').execute();
    await db
      .insertInto('monitor_alert')
      .values({ tenant_id: tenantId, dedupe_key: `e2e-${stamp}`, kind: 'router_offline', member_id: null, router_name: 'gw_ovw02', title: '设备离线', text: '', at: now - HOUR, create_time: now - HOUR })
      .execute();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the figures under the tiles, readable at every width', async () => {
    await page.goto(`${server.url}/dashboard`);
    await region().getByRole('link', { name: `${M.overviewNetworks} 1` }).waitFor({ timeout: WAIT_MS });
    // The spec's dashboard stays: the tiles come first.
    await expect(page.getByRole('link', { name: '智能组网' }).isVisible()).resolves.toBe(true);
    await region().getByRole('link', { name: `${M.overviewHardware} 1` }).waitFor();
    await region().getByRole('link', { name: `${M.overviewHardware} 共 3 台` }).waitFor();
    await region().getByRole('link', { name: `${M.overviewSoftware} 0` }).waitFor();
    await region().getByRole('link', { name: `${M.overviewOfflineDay} 1` }).waitFor();
    await region().getByRole('link', { name: `${M.overviewAlerts} 1` }).waitFor();
    await region().getByRole('link', { name: `${M.overviewQuotaMembers} 4/10` }).waitFor();
    // The compiler has versions for the network's three members that no device applied yet.
    await region().getByRole('link', { name: `${M.overviewBehind} 3` }).waitFor({ timeout: WAIT_MS });
    await screenshotAtWidths(page, 'overview-dashboard', region().getByRole('link', { name: `${M.overviewBehind} 3` }));
    // At phone width nothing of the panel runs past the window.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await region().evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1366, height: 860 });
  }, 180_000);

  it('opens the filtered member list from a figure, and shows the whole list again', async () => {
    await page.goto(`${server.url}/dashboard`);
    await region().getByRole('link', { name: `${M.overviewOfflineDay} 1` }).click();
    await expectUrl(page, '/router/lists?type=1&state=offline_day');
    await page.getByText(M.memberFilterOfflineDay).waitFor();
    await page.getByRole('link', { name: 'gw_ovw03' }).waitFor();
    await expect(page.getByRole('link', { name: 'gw_ovw01' }).count()).resolves.toBe(0);
    await screenshotAtWidths(page, 'overview-filtered-members', page.getByRole('link', { name: 'gw_ovw03' }));
    await page.getByRole('button', { name: M.memberFilterClear }).click();
    await page.getByRole('link', { name: 'gw_ovw01' }).waitFor();
    await expectUrl(page, '/router/lists?type=1');

    await page.goto(`${server.url}/dashboard`);
    await region().getByRole('link', { name: `${M.overviewAlerts} 1` }).click();
    await expectUrl(page, '/account/message?type=alert');
    await page.getByText(M.messageFilterAlert).waitFor();
  }, 180_000);

  it('shows a change at the next poll without a reload', async () => {
    await page.goto(`${server.url}/dashboard`);
    await region().getByRole('link', { name: `${M.overviewSoftware} 0` }).waitFor();
    await server.ctx.db.updateTable('member').set({ online_status: 1, online_time: Date.now() }).where('tenant_id', '=', tenantId).where('router_key', '=', 'ovw_alice').execute();
    await region().getByRole('link', { name: `${M.overviewSoftware} 1` }).waitFor({ timeout: WAIT_MS });
  }, 120_000);
});
