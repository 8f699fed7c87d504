import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshot, screenshotAtWidths, settled, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers, OK } from './dialogs';

/**
 * 配置历史 of the network detail (issue 18) in Chromium against the real server: a setting changed in its
 * dialog is a version; two versions compared side by side; a rollback confirmed with what will change,
 * after which the old value is back and the rollback is the newest version.
 */
describe('network configuration history in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let detailUrl = '';
  const username = `nhis${Date.now() % 1_000_000}`;
  const password = 'secret123';
  const DNS = '114.114.114.114';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '历史测试' }, { grant: { dns_quantity: 4 } }));
    await addRouters(server, page, ['hist_c01', 'hist_p01']);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '历史网络', center: ['hist_c01'], point: ['hist_p01'] });
    detailUrl = `${server.url}/network/detail?network_number=${created.data!.network_number}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig, submit } = dialogHelpers(() => page);
  const history = () => page.getByRole('region', { name: M.histTab });
  const versionRow = (n: number) => history().locator(`tr[data-row-key="${n}"]`);
  const dnsValues = () => dialog().locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

  it('records a DNS change as version 2', async () => {
    await page.goto(detailUrl);
    await versionRow(1).getByText(M.histCreated).waitFor();
    await openConfig(M.networkMenuDns);
    await dialog().getByRole('button', { name: M.netSetDnsAdd }).click();
    await dialog().getByLabel(`${M.netSetDnsRow} 1`, { exact: true }).fill(DNS);
    await submit(M.saved);
    await versionRow(2).getByText(M.histFieldDns, { exact: true }).waitFor();
    await expect.poll(() => versionRow(2).getByText(fmt(M.histWhoMain, { name: username })).count()).toBe(1);
    // The newest version is the network as it is: marked, with nothing to roll back to; the older one offers it.
    await versionRow(2).getByText(M.histCurrentVersion).waitFor();
    expect(await versionRow(2).getByRole('button', { name: M.histRollback }).count()).toBe(0);
    await versionRow(1).getByRole('button', { name: M.histRollback }).waitFor();
    await history().scrollIntoViewIfNeeded();
    await screenshotAtWidths(page, 'network-history-list', versionRow(2));
  });

  it('compares versions 1 and 2 side by side with the changed row marked', async () => {
    await versionRow(1).getByRole('checkbox').check();
    await versionRow(2).getByRole('checkbox').check();
    await history().getByRole('button', { name: M.histCompare }).click();
    await dialog().getByText(fmt(M.histCompareTitle, { a: 1, b: 2 })).waitFor();
    const dnsRow = dialog().locator('tr[data-changed="1"]', { hasText: M.histFieldDns });
    await dnsRow.getByText(DNS).waitFor();
    await settled(page);
    for (const width of [1440, 1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      await screenshot(page, `network-history-compare-${width}`, dnsRow);
    }
    await page.setViewportSize({ width: 1366, height: 860 });
    await dialog().getByRole('button', { name: /Close|关闭/ }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('rolls back to version 1 after showing what will change, and the old DNS is back', async () => {
    await versionRow(1).getByRole('button', { name: M.histRollback }).click();
    const confirmation = page.getByRole('dialog').filter({ hasText: fmt(M.histRollbackConfirm, { n: 1 }) });
    await confirmation.locator('tr[data-changed="1"]', { hasText: M.histFieldDns }).getByText(DNS).waitFor();
    await settled(page);
    await screenshot(page, 'network-history-rollback-confirm', confirmation);
    await confirmation.getByRole('button', { name: OK }).click();
    await page.getByText(fmt(M.histRollbackDone, { n: 1 })).first().waitFor();
    await versionRow(3).getByText(fmt(M.histRollbackTo, { n: 1 })).waitFor();
    // The rollback is the current version now; version 2 can be rolled back to.
    await versionRow(3).getByText(M.histCurrentVersion).waitFor();
    await versionRow(2).getByRole('button', { name: M.histRollback }).waitFor();
    // The server refuses a rollback to what the network already is, with its reason.
    const same = postAs(server, page, '/network/history/rollback', { network_number: new URL(detailUrl).searchParams.get('network_number'), version: 3 });
    await expect(same).rejects.toThrow(fmt(M.histRollbackSame, { n: 3 }));
    // The network as the server has it now.
    await page.reload();
    await versionRow(3).waitFor();
    await openConfig(M.networkMenuDns);
    await expect.poll(dnsValues).not.toContain(DNS);
  });
});
