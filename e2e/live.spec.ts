import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { M } from '@hublink/contract';
import { assignSaasDevice } from '../packages/server/src/modules/saas';
import { addRouters, canvasStill, CONTEXT, launch, postAs, SCREEN_WIDTHS, screenshot, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/** Online and offline show after a status poll (10 s) that follows the device's change. */
const POLL_WAIT_MS = WAIT_MS + 15_000;
const FAST = { firstMinMs: 50, firstMaxMs: 200, maxMs: 1_000, throttledMinMs: 1_000 };

/**
 * The console fed by real (simulated) devices through the gateway (issue 13): members going online and
 * offline in the network detail, the router detail's live chart moving, the connect log filling and
 * exporting. Nothing here is written to the database by the test: all of it comes from the agents.
 */
describe('the console with the simulator running', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let sim: Simulation | undefined;
  const stamp = String(Date.now() % 1_000_000);
  const username = `live${stamp}`;
  const password = 'secret123';
  const center = `livehq${stamp}`;
  const points = [`liveshop${stamp}`, `livelab${stamp}`];
  const secret = 'devsecret1';
  let networkNumber = '';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    let tenantId: number;
    ({ page, tenantId } = await signedInTenant(server, browser, { username, password, phone: `135${String(Date.now()).slice(-8)}`, nickname: '实时测试' }, { context: { acceptDownloads: true } }));
    await addRouters(server, page, [center, ...points], { secret });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '实时网络', center: [center], point: points });
    networkNumber = created.data!.network_number;
    // The center is also a SaaS device (the operator's side), so its analysis shows what its agent reports.
    await assignSaasDevice(server.ctx.db, { tenantId, routerName: center, category: '总部', share: 1, max_bandwidth: 100, bandwidth: 50, expire_date: null });
    sim = simulate({
      url: server.url,
      members: [center, ...points].map((router_name) => ({ kind: 'router' as const, router_name, secret })),
      startSpreadMs: 100,
      linkDelayMs: [10, 50],
      backoff: FAST,
      // Flow records with every status report (10 s) rather than every minute.
      flowsEvery: 1,
    });
  }, 60_000);

  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.close();
  });

  const memberRow = (name: string) => page.getByRole('region', { name: M.networkMembers }).getByRole('row').filter({ hasText: name });
  const onlineBadge = (name: string) => memberRow(name).locator('.ant-badge-status-success');
  const offlineBadge = (name: string) => memberRow(name).locator('.ant-badge-status-default');

  it('shows the members going online, their links, and one going offline', async () => {
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    for (const name of [center, ...points]) await onlineBadge(name).waitFor({ timeout: POLL_WAIT_MS });
    await memberRow(center).getByText(M.networkConfigApplied).waitFor({ timeout: POLL_WAIT_MS });
    // The points' links, as their agents report them, with the time each came up.
    const links = page.getByRole('region', { name: M.networkLinks });
    await expect.poll(() => links.getByText(M.networkOnline, { exact: true }).count(), { timeout: POLL_WAIT_MS }).toBe(points.length);
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `live-network-${width}`, onlineBadge(center));
    }
    await page.setViewportSize(CONTEXT.viewport);

    // The simulator's clients are in the order of its members: center, then the points.
    await sim!.clients[2]!.stop();
    await offlineBadge(points[1]!).waitFor({ timeout: POLL_WAIT_MS });
    expect(await onlineBadge(center).count()).toBe(1);
  }, 180_000);

  it("moves the router detail's chart with the device's traffic", async () => {
    await page.goto(`${server.url}/router/detail?router_name=${center}`);
    // The first interface's inbound rate text (value / 8, two decimals).
    const rate = page.getByText(/^\d+\.\d{2} MB\/s$/).first();
    await rate.waitFor({ timeout: WAIT_MS });
    const first = await rate.textContent();
    // The simulated device reports every 5 s with a random walk: the next report changes the rate.
    await expect.poll(() => rate.textContent(), { timeout: WAIT_MS }).not.toBe(first);
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `live-router-${width}`, rate);
    }
    await page.setViewportSize(CONTEXT.viewport);
  }, 120_000);

  it('fills the connect log and exports it as a workbook', async () => {
    await page.goto(`${server.url}/logs/connect`);
    await page.getByRole('cell', { name: center, exact: true }).first().waitFor({ timeout: WAIT_MS });
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('button', { name: new RegExp(M.logExport) }).click();
    const file = await downloaded;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
    const names = new Set<string>();
    wb.worksheets[0]!.eachRow((r, n) => n > 1 && names.add(String((r.values as unknown[])[1])));
    for (const name of [center, ...points]) expect(names).toContain(name);
  }, 120_000);

  it("renders the SaaS analysis of the center's flow records", async () => {
    await page.goto(`${server.url}/saas/detail?router_name=${center}`);
    await page.getByRole('tab', { name: M.saasTabAnalysis }).click();
    // The simulated agent's applications (微信, 钉钉, HTTPS, …) arrive with its reports, a minute sum at a time.
    const appCell = page.getByRole('cell', { name: /^(微信|钉钉|企业微信|HTTPS|DNS|抖音|Office 365|SSH)$/ }).first();
    await expect
      .poll(
        async () => {
          if ((await appCell.count()) > 0) return true;
          await page.getByRole('tab', { name: M.saasTabTraffic }).click();
          await page.getByRole('tab', { name: M.saasTabAnalysis }).click();
          return false;
        },
        { timeout: 60_000, interval: 5_000 },
      )
      .toBe(true);
    await canvasStill(page.getByRole('img', { name: M.saasAppLog }).locator('canvas'));
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `live-saas-analysis-${width}`, appCell);
    }
    await page.setViewportSize(CONTEXT.viewport);
  }, 120_000);
});
