import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshot, settled, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers, OK } from './dialogs';

/** A phone's width (the narrowest of pages.spec.ts). */
const PHONE = { width: 390, height: 844 };

/**
 * The settings of the network detail (issue 12) in Chromium against the real server: line main/backup,
 * DNS (with a refused duplicate), ciphers, dial mode, default route, dynamic routing, the member commands
 * and resending the config; then every dialog at a phone's width.
 */
describe('network settings in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let detailUrl = '';
  const username = `nset${Date.now() % 1_000_000}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    // Two centers, four DNS rows, default route and dynamic routing.
    const grant = { network_center_count: 2, dns_quantity: 4, auth_quagga: 1, auth_default_route: 1 };
    ({ page } = await signedInTenant(server, browser, { username, password, phone: `139${String(Date.now()).slice(-8)}`, nickname: '设置测试' }, { grant }));
    await addRouters(server, page, ['gw_main01', 'gw_back01'], { note: '机房出口' });
    await postAs(server, page, '/router/add', { router_type: 2, username: 'app01', password: 'devsecret1', note: '笔记本' });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '设置网络', center: ['gw_main01', 'gw_back01'], point: ['app01'] });
    // gw_main01 is online, as the device gateway would leave it.
    await server.ctx.db.updateTable('member').set({ online_status: 1 }).where('router_name', '=', 'gw_main01').execute();
    detailUrl = `${server.url}/network/detail?network_number=${created.data!.network_number}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig, choose, submit, confirm } = dialogHelpers(() => page);
  const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });

  it('sets main-backup lines: picking the main center makes the other one the backup', async () => {
    await page.goto(detailUrl);
    await row('gw_main01').waitFor();
    await openConfig(M.networkMenuRouting);
    await dialog().getByRole('radio', { name: M.netSetRoutingMainBackup }).check();
    await choose(dialog().getByLabel(M.netSetRoutingMain), 'gw_back01');
    // The backup line took the other center by itself.
    const backup = dialog().locator('.ant-form-item', { hasText: M.netSetRoutingBackup }).getByText('gw_main01', { exact: true });
    await backup.waitFor();
    await screenshot(page, 'network-settings-routing', backup);
    await submit(M.networkSetDone);
    await expect.poll(() => row('gw_back01').getByText(M.networkLineMain).count()).toBe(1);
    await expect.poll(() => row('gw_main01').getByText(M.networkLineBackup).count()).toBe(1);
  });

  it('refuses a duplicate DNS row, then saves the list', async () => {
    await openConfig(M.networkMenuDns);
    await dialog().getByRole('button', { name: M.netSetDnsAdd }).click();
    await dialog().getByLabel(`${M.netSetDnsRow} 1`, { exact: true }).fill('8.8.8.8');
    await dialog().getByRole('button', { name: M.netSetDnsAdd }).click();
    await dialog().getByLabel(`${M.netSetDnsRow} 2`, { exact: true }).fill('8.8.8.8');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.networkDnsRepeat).first().waitFor();
    await screenshot(page, 'network-settings-dns-refused', dialog().getByText(M.networkDnsRepeat).first());
    await dialog().getByLabel(`${M.netSetDnsRow} 2`, { exact: true }).fill('114.114.114.114');
    await submit(M.saved);
  });

  it('switches to the national-standard ciphers and sets a member’s dial mode', async () => {
    await openConfig(M.networkMenuCiphers);
    await dialog().getByRole('radio', { name: M.netSetCiphersSm }).check();
    await screenshot(page, 'network-settings-ciphers', dialog().getByRole('radio', { name: M.netSetCiphersSm }));
    await submit(M.modified);
    await page.getByText(M.networkCiphersSm, { exact: true }).waitFor();

    await openConfig(M.networkMenuMode);
    await choose(dialog().getByLabel(M.netSetModeMember), 'app01（笔记本）');
    await dialog().getByRole('radio', { name: M.networkModePop }).check();
    await screenshot(page, 'network-settings-mode', dialog().getByRole('radio', { name: M.networkModePop }));
    await submit(M.networkSetDone);
  });

  it('advertises a default route with priority 3 and toggles dynamic routing', async () => {
    await page.getByRole('button', { name: `${M.netSetRouteEdit} ${M.networkDefaultRoute} gw_main01` }).click();
    await dialog().waitFor();
    await settled(page);
    await expect.poll(() => dialog().getByLabel(M.netSetRoutePriority).count()).toBe(0);
    await dialog().getByRole('radio', { name: M.networkRouteAdvertise }).check();
    await choose(dialog().getByLabel(M.netSetRoutePriority), fmt(M.netSetRoutePriorityN, { n: 3 }));
    await screenshot(page, 'network-settings-default-route', dialog().getByLabel(M.netSetRoutePriority));
    await submit(M.networkSetDone);
    await row('gw_main01').getByText(`${M.networkRouteAdvertise} ${fmt(M.networkRoutePriority, { n: 3 })}`).waitFor();

    await page.getByRole('switch', { name: fmt(M.netSetQuaggaSwitch, { name: 'gw_main01' }) }).click();
    await confirm(fmt(M.netSetQuaggaOn, { name: 'gw_main01' }));
    await expect.poll(() => page.getByRole('switch', { name: fmt(M.netSetQuaggaSwitch, { name: 'gw_main01' }) }).isChecked()).toBe(true);

    await page.getByRole('button', { name: M.netSetQuaggaAllOn }).click();
    await confirm(M.netSetQuaggaAllOnConfirm);
    await expect.poll(() => page.getByRole('switch', { name: fmt(M.netSetQuaggaSwitch, { name: 'app01' }) }).isChecked()).toBe(true);
    await page.getByRole('button', { name: M.netSetQuaggaAllOff }).click();
    await confirm(M.netSetQuaggaAllOffConfirm);
    await expect.poll(() => page.getByRole('switch', { name: fmt(M.netSetQuaggaSwitch, { name: 'gw_main01' }) }).isChecked()).toBe(false);
    await page.getByText(M.netSetQuaggaAllOffConfirm).waitFor({ state: 'hidden' });
    await screenshot(page, 'network-settings-members', row('gw_main01'));
  });

  it('kicks an online member, restarts its service and resends the config: the commands are queued', async () => {
    await expect.poll(() => page.getByRole('button', { name: `${M.networkKick} gw_back01` }).count()).toBe(0);
    const kinds = async () => (await server.ctx.db.selectFrom('member_command').select(['kind']).execute()).map((c) => c.kind);
    /** Confirms a command, then waits until it is queued and its confirmation and request are done. */
    const command = async (question: string, kind: string) => {
      await confirm(question);
      await expect.poll(kinds).toContain(kind);
      await page.getByText(question).waitFor({ state: 'hidden' });
      await settled(page);
    };
    // The toast lasts five seconds, which a loaded machine may spend on the command's request: it is
    // looked for from the click on.
    const queued = page.getByText(M.networkCommandQueued).first().waitFor();
    queued.catch(() => undefined); // awaited below; a failure before then is the test's own
    await page.getByRole('button', { name: `${M.networkKick} gw_main01` }).click();
    await command(fmt(M.netSetKickConfirm, { name: 'gw_main01' }), 'kill');
    await queued;
    await page.getByRole('button', { name: `${M.networkRespawn} gw_main01` }).click();
    await command(fmt(M.netSetRespawnConfirm, { name: 'gw_main01' }), 'restart');

    await page.getByRole('button', { name: new RegExp(M.networkConfig) }).click();
    const resend = page.getByRole('menuitem', { name: M.netSetResend });
    await resend.waitFor();
    const configQueued = page.getByText(M.networkConfigQueued).first().waitFor();
    configQueued.catch(() => undefined);
    await resend.click();
    await command(M.netSetResendConfirm, 'resend_config');
    await configQueued;
  });

  it('every dialog fits a phone’s width', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(detailUrl);
    await row('gw_main01').waitFor();
    const fits = async (name: string) => {
      const box = await dialog().boundingBox();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(PHONE.width);
      expect(scrollWidth, name).toBeLessThanOrEqual(clientWidth);
      await screenshot(page, `network-settings-390-${name}`, dialog());
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'hidden' });
    };
    for (const [label, name] of [
      [M.networkMenuRouting, 'routing'],
      [M.networkMenuDns, 'dns'],
      [M.networkMenuCiphers, 'ciphers'],
      [M.networkMenuMode, 'mode'],
    ] as const) {
      await openConfig(label);
      await fits(name);
    }
    await page.getByRole('button', { name: `${M.netSetRouteEdit} ${M.networkDefaultRoute} gw_main01` }).click();
    await dialog().waitFor();
    await settled(page);
    await fits('default-route');
  });
});
