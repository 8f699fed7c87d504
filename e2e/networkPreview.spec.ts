import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActionName, fmt, M } from '@hublink/contract';
import { dialogHelpers } from './dialogs';
import { addRouters, CONTEXT, launch, postAs, screenshot, screenshotAtWidths, SCREEN_WIDTHS, signedInTenant, startServer, type Server } from './support';

/**
 * 保存前预览 (issue 36) in Chromium against the real server: a prefix change that cuts a LAN off, a
 * harmless DNS change and a cipher change that reconfigures every member, each previewed in its dialog
 * before anything is saved, and the saved change's effect in its version and its audit entry (pictures
 * at 1440, 1280 and 390 px).
 */
describe('a settings change previewed before it is saved', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let detailUrl = '';
  const username = `npre${Date.now() % 1_000_000}`;
  const names = ['pv_c1', 'pv_c2', 'pv_p1', 'pv_p2'];
  const lans = names.map((name, i) => ({ ip: `10.${i + 1}.0.0`, mask: 24, name }));

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const grant = { network_center_count: 2, dns_quantity: 4, auth_quagga: 1, auth_default_route: 1 };
    ({ page } = await signedInTenant(server, browser, { username, password: 'secret123', phone: `137${String(Date.now()).slice(-8)}`, nickname: '预览测试' }, { grant }));
    await addRouters(server, page, names);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '预览网络', center: names.slice(0, 2), point: names.slice(2) });
    const networkNumber = created.data!.network_number;
    const res = await postAs(server, page, '/network/edit_prefix', { network_number: networkNumber, prefix: lans });
    expect(res.code, res.msg).toBe(200);
    detailUrl = `${server.url}/network/detail?network_number=${networkNumber}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig } = dialogHelpers(() => page);
  const preview = () => dialog().getByRole('region', { name: M.previewTitle });
  const cancel = async () => {
    await dialog().getByRole('button', { name: /取\s?消/ }).click();
    await dialog().waitFor({ state: 'hidden' });
  };

  it("shows the pairs a prefix change cuts off, with where their packets stop, and saves nothing", async () => {
    await page.goto(detailUrl);
    await page.getByRole('row', { name: /^pv_c1/ }).waitFor();
    await openConfig(M.networkMenuPrefix);
    await dialog().getByRole('button', { name: `${M.segUiPrefixRemove} ${M.segUiPrefixRow} 4` }).click();
    const lost = preview().getByText(/条连通将中断$/);
    await lost.waitFor();
    // Every other member loses pv_p2's LAN, in the normal state and with each center down.
    await preview().getByText('pv_c1 → pv_p2 10.4.0.0/24').first().waitFor();
    expect(await preview().getByText(/^在 pv_c1 中断（/).count()).toBeGreaterThan(0);
    await screenshotAtWidths(page, 'network-preview-prefix-cut', lost);
    await cancel();
    const stored = await server.ctx.db.selectFrom('network_prefix').select('name').orderBy('position').execute();
    expect(stored.map((r) => r.name)).toEqual(names);
  });

  it('says a DNS change keeps every path, lists the members it reconfigures, and saves it', async () => {
    await openConfig(M.networkMenuDns);
    await dialog().getByRole('button', { name: M.netSetDnsAdd }).click();
    await dialog().getByLabel(`${M.netSetDnsRow} 1`, { exact: true }).fill('10.1.0.53');
    const same = preview().getByText(M.previewReachSame);
    await same.waitFor();
    await preview().getByText(fmt(M.previewMembers, { n: 4 })).waitFor();
    await screenshotAtWidths(page, 'network-preview-dns-harmless', same);
    await dialog().getByRole('button', { name: /确\s?定/ }).click();
    await page.getByText(M.saved).first().waitFor();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('shows a cipher change reconfiguring every member', async () => {
    await openConfig(M.networkMenuCiphers);
    expect(await preview().count()).toBe(0);
    await dialog().getByRole('radio', { name: M.netSetCiphersSm }).check();
    const members = preview().getByText(fmt(M.previewMembers, { n: 4 }));
    await members.waitFor();
    for (const name of names) await preview().getByText(name, { exact: true }).waitFor();
    await screenshotAtWidths(page, 'network-preview-ciphers-every-member', members);
    await cancel();
  });

  it("previews a member's dynamic routing inside the switch's confirmation, within the screen at every width, and changes nothing", async () => {
    const toggle = page.getByRole('switch', { name: fmt(M.netSetQuaggaSwitch, { name: 'pv_p1' }) });
    const confirmation = page.getByRole('tooltip').filter({ has: page.getByRole('region', { name: M.previewTitle }) });
    try {
      // Opened at each width (a confirmation stays where it opened when the window is resized).
      for (const width of SCREEN_WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await toggle.scrollIntoViewIfNeeded();
        await toggle.click();
        const asked = confirmation.getByRole('region', { name: M.previewTitle });
        await asked.getByText(/个成员的配置将改变$/).waitFor();
        // Asking is not saving: no success toast of its own (the earlier save's 保存成功 may still show).
        expect(await page.locator('.ant-message-notice').filter({ hasText: /^success$/ }).count()).toBe(0);
        const box = (await confirmation.boundingBox())!;
        expect(box.x, `left edge at ${width}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `right edge at ${width}`).toBeLessThanOrEqual(width);
        await screenshot(page, `network-preview-quagga-confirm-${width}`, asked);
        await confirmation.getByRole('button', { name: /取\s?消/ }).click();
        await confirmation.waitFor({ state: 'detached' });
      }
    } finally {
      await page.setViewportSize(CONTEXT.viewport);
    }
    expect(await toggle.isChecked()).toBe(false);
  });

  it('saves the prefix change: its version in the history and its audit entry show the pairs it cut off', async () => {
    await openConfig(M.networkMenuPrefix);
    await dialog().getByRole('button', { name: `${M.segUiPrefixRemove} ${M.segUiPrefixRow} 4` }).click();
    await preview().getByText(/条连通将中断$/).waitFor();
    await dialog().getByRole('button', { name: /确\s?定/ }).click();
    await dialog().waitFor({ state: 'hidden' });

    const history = page.getByRole('region', { name: M.histTab });
    const latest = history.locator('tr[data-row-key]').first();
    const cut = latest.getByText(/条连通已中断$/);
    await cut.waitFor();
    const cutText = await cut.textContent();
    await latest.getByRole('button', { name: /展开/ }).click();
    const kept = history.getByRole('region', { name: new RegExp(`^${M.effectTitle}`) });
    await kept.getByText('pv_c1 → pv_p2 10.4.0.0/24').first().waitFor();
    await kept.getByText(fmt(M.effectMembers, { n: 4 })).waitFor();
    await screenshotAtWidths(page, 'network-history-effect', kept);

    await page.goto(`${server.url}/audit`);
    const entry = page.getByRole('row').filter({ hasText: auditActionName('/network/edit_prefix') }).first();
    await entry.waitFor();
    await entry.getByRole('button', { name: M.auditDetail }).click();
    const inEntry = page.getByRole('dialog').getByRole('region', { name: M.effectTitle });
    await inEntry.getByText('pv_c1 → pv_p2 10.4.0.0/24').first().waitFor();
    expect(await inEntry.getByText(/条连通已中断$/).textContent()).toBe(cutText);
    await screenshotAtWidths(page, 'audit-entry-effect', inEntry);
  });
});
