import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEVICE_CLOSE, M } from '@hublink/contract';
import { addRouters, launch, screenshotAtWidths, settled, signedInTenant, startServer, type Server } from './support';
import { OK } from './dialogs';

const SECRET = 'devsecret1';

/** One hello of a hardware router, as its agent sends it: 'welcome', or the code the gateway closed with. */
async function hello(server: Server, router_name: string, device: { model: string; brand: string; os: string; device_id: string }): Promise<'welcome' | number> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/device/v1/ws`);
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      ws.send(
        JSON.stringify({ type: 'hello', protocol: 1, kind: 'router', router_name, secret: SECRET, version: '1.0.0', os: device.os, sys_brand: device.brand, router_model: device.model, device_id: device.device_id }),
      ),
    );
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'welcome') {
        ws.close(1000);
        resolve('welcome');
      }
    });
    ws.once('close', (code) => resolve(code));
  });
}

describe('devices join by approval in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const shop = { model: 'HL-300', brand: 'HubLink', os: 'openwrt', device_id: 'b7d1c0de-0001' };
  const depot = { model: 'RB5009', brand: 'MikroTik', os: 'routeros', device_id: 'b7d1c0de-0002' };

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `apr${Date.now() % 1_000_000}`, password: 'secret123', phone: `137${String(Date.now()).slice(-8)}`, nickname: '审批测试' }));
    await addRouters(server, page, ['gw_shop01', 'gw_depot01'], { secret: SECRET });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is reached from the member menu, starts off and empty, and turns on after the confirmation', async () => {
    await page.goto(`${server.url}/router/lists`);
    await page.getByRole('menuitem', { name: M.routeDeviceApproval }).click();
    await page.waitForURL('**/router/device_approval');
    await page.getByText(M.empty).first().waitFor();
    const toggle = page.getByRole('switch', { name: M.deviceApprovalSwitch });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByText(M.deviceApprovalEnableConfirm).waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: OK }).click();
    await page.getByText(M.deviceApprovalSaved).first().waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);
  });

  it('lists the routers that wait with their address, OS and model', async () => {
    expect(await hello(server, 'gw_shop01', shop)).toBe(DEVICE_CLOSE.awaitingApproval);
    expect(await hello(server, 'gw_depot01', depot)).toBe(DEVICE_CLOSE.awaitingApproval);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'gw_shop01' });
    for (const text of ['127.0.0.1', 'openwrt', 'HubLink HL-300', M.deviceApprovalWaiting]) await row.getByText(text).first().waitFor();
    await page.getByRole('row').filter({ hasText: 'gw_depot01' }).getByText('MikroTik RB5009').waitFor();
    await screenshotAtWidths(page, 'device-approval-waiting', page.getByRole('cell', { name: 'gw_depot01' }));
  });

  it('approves one and refuses the other; the approved router signs in, the refused one is turned away', async () => {
    const shopRow = page.getByRole('row').filter({ hasText: 'gw_shop01' });
    await shopRow.getByRole('button', { name: M.deviceApprovalApprove }).click();
    await page.getByText(M.deviceApprovalApproveConfirm).waitFor();
    await settled(page);
    await page.locator('.ant-popconfirm').getByRole('button', { name: OK }).click();
    await page.getByText(M.deviceApproved).first().waitFor();
    await page.getByRole('cell', { name: 'gw_shop01' }).waitFor({ state: 'detached' });
    expect(await hello(server, 'gw_shop01', shop)).toBe('welcome');

    const depotRow = page.getByRole('row').filter({ hasText: 'gw_depot01' });
    await depotRow.getByRole('button', { name: M.deviceApprovalRefuse }).click();
    await page.getByText(M.deviceApprovalRefuseConfirm).waitFor();
    await settled(page);
    await page.locator('.ant-popconfirm').last().getByRole('button', { name: OK }).click();
    await page.getByText(M.deviceRefused).first().waitFor();
    await page.getByRole('cell', { name: 'gw_depot01' }).waitFor({ state: 'detached' });
    expect(await hello(server, 'gw_depot01', depot)).toBe(DEVICE_CLOSE.deviceRefused);

    // Under 全部 both show with their decision and who made it.
    await page.getByText(M.deviceApprovalFilterAll).click();
    await page.getByRole('row').filter({ hasText: 'gw_shop01' }).getByText(M.deviceApprovalApproved).waitFor();
    await page.getByRole('row').filter({ hasText: 'gw_depot01' }).getByText(M.deviceApprovalRefused).waitFor();
    await screenshotAtWidths(page, 'device-approval-all', page.getByRole('cell', { name: 'gw_depot01' }));
  });
});
