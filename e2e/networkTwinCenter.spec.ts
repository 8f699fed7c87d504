import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshot, screenshotAtWidths, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers } from './dialogs';

const ENABLE = new RegExp(M.segUiCenterLinkEnable.split('').join('\\s?'));

/**
 * The twin-center link's line mode in Chromium against the real server (issue 29): the link set with
 * 主备 makes its server the main line, which the summary, the member rows and the 线路主备 dialog then
 * show; a link segment over a member's route prefix is refused in the dialog with the server's message.
 * The dialog is pictured at 1440, 1280 and 390 px.
 */
describe('twin-center line mode in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let detailUrl = '';
  let networkNumber = '';
  const username = `ntwin${Date.now() % 1_000_000}`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const grant = { network_center_count: 2, auth_quagga: 1, auth_default_route: 1 };
    ({ page } = await signedInTenant(server, browser, { username, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '双中心测试' }, { grant }));
    await addRouters(server, page, ['tw_ca01', 'tw_cb01', 'tw_pt01']);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '双中心网络', center: ['tw_ca01', 'tw_cb01'], point: ['tw_pt01'] });
    networkNumber = created.data!.network_number;
    // The point's LAN.
    const prefix = await postAs(server, page, '/network/edit_prefix', { network_number: networkNumber, prefix: [{ ip: '10.254.0.0', mask: 16, name: 'tw_pt01' }] });
    expect(prefix.code).toBe(200);
    detailUrl = `${server.url}/network/detail?network_number=${networkNumber}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, choose, submit, ...helpers } = dialogHelpers(() => page);
  const openConfig = (label: string) => helpers.openConfig(label, true);
  const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });
  const summary = () => page.locator('.ant-card').filter({ hasText: M.networkSummary });
  const networkRow = () => server.ctx.db.selectFrom('network').selectAll().where('network_number', '=', networkNumber).executeTakeFirstOrThrow();

  it('refuses a link segment over a route prefix in the dialog, then sets the link with 主备', async () => {
    await page.goto(detailUrl);
    await row('tw_ca01').waitFor();
    await summary().getByText(M.netSetRoutingDual).waitFor();

    await openConfig(M.networkMenuCenterLink);
    await dialog().getByRole('radio', { name: M.netSetRoutingDual, checked: true }).waitFor();
    await choose(dialog().getByLabel(M.segUiCenterLinkServer), 'tw_cb01');
    await dialog().getByRole('radio', { name: M.netSetRoutingMainBackup }).check();
    await dialog().getByText(fmt(M.segUiCenterLinkMainBackupHint, { name: 'tw_cb01', other: 'tw_ca01' })).waitFor();
    await dialog().getByLabel(M.segUiGateway, { exact: true }).fill('10.254.1.0');
    await choose(dialog().getByLabel(M.segUiMask, { exact: true }), '/24');

    const refusal = fmt(M.segOverlapPrefix, { segment: '10.254.1.0/24', prefix: '10.254.0.0/16' });
    await dialog().getByRole('button', { name: ENABLE }).click();
    await page.getByText(refusal).waitFor();
    await screenshot(page, 'network-twin-center-refused', page.getByText(refusal));
    // Nothing changed: the dialog is still open, the link off, the routing dual primary.
    await dialog().waitFor();
    expect(await networkRow()).toMatchObject({ center_link: 0, routing_type: 1 });

    await dialog().getByLabel(M.segUiGateway, { exact: true }).fill('10.253.0.0');
    await submit(M.networkSetDone, ENABLE);
    expect(await networkRow()).toMatchObject({ center_link: 1, routing_type: 2 });
  });

  it('shows the server as the main line in the summary, the member rows and the 线路主备 dialog', async () => {
    await summary().getByText(fmt(M.netSetRoutingMainBackupOf, { name: 'tw_cb01' })).waitFor();
    await expect.poll(() => row('tw_cb01').getByText(M.networkLineMain).count()).toBe(1);
    await expect.poll(() => row('tw_ca01').getByText(M.networkLineBackup).count()).toBe(1);

    await openConfig(M.networkMenuRouting);
    await dialog().getByRole('radio', { name: M.netSetRoutingMainBackup, checked: true }).waitFor();
    const line = (label: string, name: string) => dialog().locator('.ant-form-item', { hasText: label }).getByText(name, { exact: true });
    await line(M.netSetRoutingMain, 'tw_cb01').waitFor();
    await line(M.netSetRoutingBackup, 'tw_ca01').waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('pictures the twin-center link dialog at 1440, 1280 and 390 px, nothing cut off', async () => {
    await openConfig(M.networkMenuCenterLink);
    await dialog().getByText(M.segUiCenterLinkOn).waitFor();
    await dialog().getByRole('radio', { name: M.netSetRoutingMainBackup, checked: true }).waitFor();
    await screenshotAtWidths(page, 'network-twin-center-dialog', dialog().getByText(fmt(M.segUiCenterLinkMainBackupHint, { name: 'tw_cb01', other: 'tw_ca01' })));
    for (const width of [1440, 1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await dialog().getByRole('button', { name: M.segUiCenterLinkClose }).waitFor();
      const box = (await dialog().boundingBox())!;
      expect(box.x, `${width}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${width}`).toBeLessThanOrEqual(width);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
      expect(scrollWidth, `${width}`).toBeLessThanOrEqual(clientWidth);
    }
  });
});
