import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { assignSaasDevice } from '../packages/server/src/modules/saas';
import { addRouters, canvasStill, CONTEXT, launch, postAs, screenshot, settled, signedInTenant, startServer, type Server } from './support';

const OK = /确\s?定|OK/;
const WIDTHS = [1440, 1280, 390];
const MINUTE = 60_000;

/**
 * SaaS devices in Chromium against the real server (issue 13): devices the operator put on the tenant
 * (assignSaasDevice), their sessions, traffic and flow minutes seeded as the gateway writes them; the
 * list with its groups and dialogs, and the detail with its chart, dial-in records and analysis views.
 */
describe('SaaS devices in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);
  const username = `saas${stamp}`;
  const password = 'secret123';
  const [shanghai, hangzhou, beijing] = [`saassh${stamp}`, `saashz${stamp}`, `saasbj${stamp}`];

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    let tenantId: number;
    ({ page, tenantId } = await signedInTenant(server, browser, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: 'SaaS测试' }));
    await addRouters(server, page, [shanghai, hangzhou, beijing]);
    await postAs(server, page, '/router/note', { router_name: shanghai, note: '上海机房' });
    const db = server.ctx.db;
    const now = Date.now();
    const base = { tenantId, max_bandwidth: 100, expire_date: now + 365 * 24 * 60 * MINUTE };
    await assignSaasDevice(db, { ...base, routerName: shanghai, category: '华东', share: 1, bandwidth: 20, ip: ['203.0.113.7', '203.0.113.8'], temp_bandwidth: 80, temp_start_date: now - 60 * MINUTE, temp_expire_date: now + 24 * 60 * MINUTE });
    await assignSaasDevice(db, { ...base, routerName: hangzhou, category: '华东', share: 1, bandwidth: 0 });
    await assignSaasDevice(db, { ...base, routerName: beijing, category: '华北', share: 0, bandwidth: 50 });
    const sh = await db.selectFrom('member').select('id').where('router_name', '=', shanghai).executeTakeFirstOrThrow();
    await db.updateTable('member').set({ online_status: 1, online_time: now - 2 * 60 * MINUTE, router_model: 'HL-R300', router_ipv4: '192.168.10.1', version: '1.2.0' }).where('id', '=', sh.id).execute();
    await db.insertInto('online_log').values([
      { tenant_id: tenantId, router_name: shanghai, mode: 'pop', orig: '198.51.100.4:51820', vpn_ip: '172.16.0.2', start_time: now - 5 * 60 * MINUTE, end_time: now - 3 * 60 * MINUTE, online_time: 7200 },
      { tenant_id: tenantId, router_name: shanghai, mode: 'pop', orig: '198.51.100.9:51820', vpn_ip: '172.16.0.3', start_time: now - 2 * 60 * MINUTE, end_time: null, online_time: 0 },
    ]).execute();
    const minute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
    await db.insertInto('traffic_minute').values(
      Array.from({ length: 90 }, (_, i) => ({
        tenant_id: tenantId,
        member_id: sh.id,
        minute: minute(now - (90 - i) * MINUTE),
        down_sum: 2 * (12 + 6 * Math.sin(i / 8)),
        upload_sum: 2 * (4 + 2 * Math.cos(i / 10)),
        samples: 2,
      })),
    ).execute();
    const apps = ['微信', '钉钉', '企业微信', 'Office 365', 'Zoom', 'GitHub', 'Salesforce', '飞书'];
    await db.insertInto('flow_minute').values([
      ...apps.map((name, i) => ({ tenant_id: tenantId, member_id: sh.id, kind: 'app', name, minute: minute(now - 20 * MINUTE), download: (9 - i) * 40_000_000, upload: (9 - i) * 4_000_000 })),
      ...Array.from({ length: 36 }, (_, i) => ({ tenant_id: tenantId, member_id: sh.id, kind: 'orig', name: `10.8.0.${i + 2}`, minute: minute(now - 3 * 60 * MINUTE), download: (40 - i) * 9_000_000, upload: (40 - i) * 700_000 })),
    ]).execute();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const row = (name: string) => page.locator(`tr[data-row-key="${name}"]`);

  it('lists the devices by category with online words and a disabled bandwidth', async () => {
    await page.goto(`${server.url}/saas/router`);
    await row(shanghai).waitFor();
    expect(await page.getByRole('region', { name: '华东' }).locator('tr[data-row-key]').count()).toBe(2);
    expect(await page.getByRole('region', { name: '华北' }).locator('tr[data-row-key]').count()).toBe(1);
    expect(await row(shanghai).textContent()).toContain(M.saasOnline);
    expect(await row(hangzhou).textContent()).toContain(M.saasBandwidthDisabled);
    expect(await row(beijing).getByRole('button', { name: M.saasEditBandwidth }).count()).toBe(0);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await screenshot(page, `saas-list-${width}`, row(shanghai));
    }
    await page.setViewportSize(CONTEXT.viewport);
  });

  it('searches, then edits the bandwidth with the spec’s messages', async () => {
    await page.getByLabel(M.saasSearchPlaceholder).fill('上海');
    await page.getByRole('button', { name: /搜\s?索/ }).click();
    await expect.poll(() => page.locator('tr[data-row-key]').count()).toBe(1);
    await row(shanghai).getByRole('button', { name: M.saasEditBandwidth }).click();
    await dialog().waitFor();
    await settled(page);
    const input = dialog().getByLabel(M.saasColBandwidth);
    await input.fill('0');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.saasBandwidthPositive).waitFor();
    await input.fill('101');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(fmt(M.saasBandwidthOverMax, { n: 100 })).waitFor();
    await screenshot(page, 'saas-bandwidth-dialog', dialog().getByText(fmt(M.saasBandwidthOverMax, { n: 100 })));
    await input.fill('60');
    await dialog().getByRole('button', { name: OK }).click();
    await expect.poll(() => row(shanghai).textContent()).toContain('60 Mbs');
  });

  it('the detail shows info, temporary bandwidth, addresses, the traffic chart and dial-in records', async () => {
    await row(shanghai).getByRole('link', { name: M.saasViewDetail }).click();
    await page.getByText('HL-R300').waitFor();
    // The bandwidth's success toast is gone before the pictures.
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await page.getByText('198.51.100.9:51820').waitFor();
    expect(await page.getByText('203.0.113.8').count()).toBe(1);
    const canvas = page.getByRole('img', { name: M.saasTabTraffic }).locator('canvas');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await canvasStill(canvas);
      await screenshot(page, `saas-detail-${width}`, canvas);
    }
    await page.setViewportSize(CONTEXT.viewport);
  });

  it('the analysis views: applications in the last hour, the top 30 sources in 6 hours', async () => {
    await page.getByRole('tab', { name: M.saasTabAnalysis }).click();
    await page.getByRole('cell', { name: '企业微信' }).waitFor();
    await canvasStill(page.getByRole('img', { name: M.saasAppLog }).locator('canvas'));
    await screenshot(page, 'saas-analysis-app-1440', page.getByRole('cell', { name: '企业微信' }));
    await page.getByText(M.saasOrigLogTop).click();
    await page.getByRole('cell', { name: '10.8.0.2', exact: true }).waitFor();
    expect(await page.locator('.ant-table-tbody tr[data-row-key]').count()).toBe(30);
    await canvasStill(page.getByRole('img', { name: M.saasOrigLogTop }).locator('canvas'));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await screenshot(page, `saas-analysis-top-${width}`, page.getByRole('cell', { name: '10.8.0.2', exact: true }));
    }
    await page.setViewportSize(CONTEXT.viewport);
    await page.getByText(M.saasOrigLog, { exact: true }).click();
    await page.locator('.ant-empty-description', { hasText: M.empty }).waitFor();
  });
});
