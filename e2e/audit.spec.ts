import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_COLUMNS, auditActionName, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshot, screenshotAtWidths, signedInTenant, startServer, WAIT_MS, sheetRows, type Server } from './support';

/** The header cells of the page's table that are not wholly inside the table's visible box (cut off or scrolled away). */
async function columnsInView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const box = document.querySelector('.ant-table-container')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll<HTMLElement>('.ant-table-thead th'))
      .filter((th) => {
        const r = th.getBoundingClientRect();
        return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
      })
      .map((th) => th.innerText);
  });
}

describe('the audit page (审计日志) in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(
      server,
      browser,
      { username: `audit${stamp}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '审计测试' },
      { context: { acceptDownloads: true }, grant: { dns_quantity: 4 } },
    ));
    // What an administrator did before opening the page: two members, a network, and its new name.
    await addRouters(server, page, [`gwa${stamp}`, `gwb${stamp}`]);
    const made = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '总部网络', center: [`gwa${stamp}`], point: [`gwb${stamp}`] });
    await postAs(server, page, '/network/dns', { network_number: made.data!.network_number, dns: ['114.114.114.114', '8.8.8.8'] });
    await postAs(server, page, '/network/name', { network_number: made.data!.network_number, network_name: '总部网络二期' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const rows = () => page.locator('tbody tr.ant-table-row');

  it('lists the calls with who and what, filters by object and kind, and shows a diff with 修改前 and 修改后', async () => {
    await page.goto(`${server.url}/audit`);
    await page.getByRole('cell', { name: '总部网络二期' }).first().waitFor({ timeout: WAIT_MS });
    await expect.poll(() => rows().count(), { timeout: WAIT_MS }).toBeGreaterThanOrEqual(4);
    await screenshotAtWidths(page, 'audit-list', page.getByRole('cell', { name: '总部网络二期' }).first());
    // 操作 says what was done: the rename, the network's creation, the members added.
    const rename = rows().filter({ hasText: '总部网络二期' }).first();
    await rename.getByText(auditActionName('/network/name')).waitFor({ timeout: WAIT_MS });
    for (const path of ['/network/create', '/router/add']) await rows().filter({ hasText: auditActionName(path) }).first().waitFor({ timeout: WAIT_MS });
    expect(await rows().filter({ hasText: M.saved }).count()).toBe(0);
    // Every column is in view beside the others at the console's widths: none cut off, none under another.
    for (const width of [1440, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => columnsInView(page), { timeout: WAIT_MS }).toEqual([]);
    }
    await page.setViewportSize({ width: 1366, height: 860 });

    await page.getByPlaceholder(M.auditObjectSearch).fill('二期');
    await page.getByPlaceholder(M.auditObjectSearch).press('Enter');
    await expect.poll(() => rows().count(), { timeout: WAIT_MS }).toBe(1);
    await rows().first().getByRole('button', { name: M.auditDetail }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('cell', { name: '网络名称', exact: true }).waitFor({ timeout: WAIT_MS });
    const change = drawer.getByRole('row').filter({ has: page.getByRole('cell', { name: '网络名称', exact: true }) });
    await expect.poll(() => change.locator('td').allInnerTexts(), { timeout: WAIT_MS }).toEqual(['网络名称', '总部网络', '总部网络二期']);
    await drawer.getByRole('columnheader', { name: M.auditBefore }).waitFor();
    // Stored instants (epoch ms in *_time columns) read as dates.
    const updated = drawer.getByRole('row').filter({ has: page.getByRole('cell', { name: '更新时间', exact: true }) });
    expect((await updated.locator('td').allInnerTexts()).slice(1)).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)]);
    await screenshot(page, 'audit-diff', drawer.getByRole('cell', { name: '总部网络二期' }));
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, 'audit-diff-390', drawer.getByRole('cell', { name: '总部网络二期' }));
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // Members were created: kind 新增 shows those, not the rename.
    await page.getByPlaceholder(M.auditObjectSearch).fill('');
    await page.getByPlaceholder(M.auditObjectSearch).press('Enter');
    await page.getByLabel(M.auditKind).click();
    await page.locator('.ant-select-item-option').filter({ hasText: M.auditKindCreate }).click();
    await expect.poll(() => rows().count(), { timeout: WAIT_MS }).toBe(3);
    expect(await rows().filter({ hasText: '总部网络二期' }).count()).toBe(0);
  });

  it('shows a setting stored as JSON (the DNS list) as the console shows it, never as JSON', async () => {
    await page.goto(`${server.url}/audit`);
    const entry = rows().filter({ hasText: auditActionName('/network/dns') }).first();
    await entry.waitFor({ timeout: WAIT_MS });
    await entry.getByRole('button', { name: M.auditDetail }).click();
    const drawer = page.getByRole('dialog');
    const dns = drawer.getByRole('row').filter({ has: page.getByRole('cell', { name: 'DNS', exact: true }) });
    await expect.poll(() => dns.locator('td').allInnerTexts(), { timeout: WAIT_MS }).toEqual(['DNS', '无', '114.114.114.114、8.8.8.8']);
    expect(await drawer.innerText()).not.toMatch(/[{}"[\]]/);
    await screenshot(page, 'audit-diff-dns', dns);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it("shows the ids a change stored (a network member's network and member) by their names, never as bare numbers", async () => {
    await page.goto(`${server.url}/audit`);
    const entry = rows().filter({ hasText: auditActionName('/network/create') }).first();
    await entry.waitFor({ timeout: WAIT_MS });
    await entry.getByRole('button', { name: M.auditDetail }).click();
    const drawer = page.getByRole('dialog');
    const cells = (label: string) => drawer.getByRole('row').filter({ has: page.getByRole('cell', { name: label, exact: true }) }).locator('td');
    // An insert shows 字段 | 修改后: the member rows name their network and member as the console does.
    await expect.poll(() => cells('成员').allInnerTexts(), { timeout: WAIT_MS }).toEqual(['成员', `gwa${stamp}`, '成员', `gwb${stamp}`]);
    expect(await cells('网络').allInnerTexts()).toEqual(['网络', '总部网络', '网络', '总部网络']);
    // The tenant's own id says nothing to its reader: not shown.
    expect(await drawer.getByRole('cell', { name: 'tenant_id', exact: true }).count()).toBe(0);
    await drawer.getByTestId('audit-change').nth(1).scrollIntoViewIfNeeded();
    await screenshot(page, 'audit-diff-ids', drawer.getByRole('cell', { name: `gwb${stamp}` }));
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('saves the retention (itself an entry) and exports the entries as .xlsx', async () => {
    await page.goto(`${server.url}/audit`);
    const days = page.getByLabel(M.auditRetention);
    await expect.poll(() => days.inputValue(), { timeout: WAIT_MS }).toBe('180');
    await days.fill('90');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText(M.saved).first().waitFor({ timeout: WAIT_MS });
    await page.reload();
    await expect.poll(() => page.getByLabel(M.auditRetention).inputValue(), { timeout: WAIT_MS }).toBe('90');
    // The setting's own entry: what was done in the 操作 column (not the toast's 保存成功), kind 新增.
    await rows().filter({ hasText: auditActionName('/audit/setting') }).filter({ hasText: M.auditKindCreate }).first().waitFor({ timeout: WAIT_MS });
    expect(await rows().filter({ hasText: M.saved }).count()).toBe(0);

    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('button', { name: new RegExp(M.logExport) }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(/^审计日志-\d{8}\.xlsx$/);
    const sheet = await sheetRows((await file.path())!);
    expect(sheet[0]).toEqual([...AUDIT_EXPORT_COLUMNS]);
    expect(sheet.length).toBeGreaterThanOrEqual(6);
    expect(sheet.some((r) => r[r.length - 1]!.includes('网络名称: 总部网络 → 总部网络二期'))).toBe(true);
  });
});
