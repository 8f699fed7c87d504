import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { addRouters, CONTEXT, expectPath, launch, openUserMenu, postAs, screenshot, settled, signedInTenant, signIn, startServer, trackCaptcha, type Server } from './support';

describe('sub-accounts and roles in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const username = `ram${Date.now() % 1_000_000}`;
  const phone = `137${String(Date.now()).slice(-8)}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username, password, phone, nickname: '子账号管理' }));
    // Two networks: the role will be limited to the first.
    await addRouters(server, page, ['gw_ram01', 'gw_ram02']);
    await postAs(server, page, '/network/create', { network_name: '运维网络', center: ['gw_ram01'], point: [] });
    await postAs(server, page, '/network/create', { network_name: '财务网络', center: ['gw_ram02'], point: [] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a role whose network create is locked once a network is specified', async () => {
    await page.goto(`${server.url}/ram/role`);
    await page.getByRole('button', { name: new RegExp(M.roleCreate) }).click();
    const dialog = page.getByRole('dialog');
    await settled(page);
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await dialog.getByText(M.roleNameRequired).waitFor();

    await dialog.getByPlaceholder(M.roleNameRequired).fill('网络运维');
    const members = dialog.getByRole('group', { name: M.rolePermRouter });
    await members.getByRole('checkbox', { name: M.permCreate }).check();
    const networks = dialog.getByRole('group', { name: M.rolePermNetwork });
    await networks.getByRole('checkbox', { name: M.permCreate }).check();
    await networks.getByRole('checkbox', { name: M.permEdit }).check();
    await dialog.getByRole('combobox', { name: M.roleNetworks }).click();
    await page.locator('.ant-select-item-option').getByText('运维网络').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => networks.getByRole('checkbox', { name: M.permCreate }).isChecked()).toBe(false);
    await expect.poll(() => networks.getByRole('checkbox', { name: M.permCreate }).isDisabled()).toBe(true);
    await settled(page);
    await screenshot(page, 'ram-role-dialog', networks.getByRole('checkbox', { name: M.permCreate }));
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByText(M.saved).first().waitFor();
    await page.getByRole('cell', { name: '网络运维' }).waitFor();
  });

  it('creates a sub-account as name@domain within the quota', async () => {
    await page.goto(`${server.url}/ram/index`);
    await page.getByText(`${M.ramQuota} 0/10`).waitFor();
    await page.getByRole('button', { name: new RegExp(M.ramCreate) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`@${username}`).waitFor();
    await dialog.getByRole('combobox', { name: M.ramRole }).click();
    await page.getByTitle('网络运维').click();
    await dialog.getByPlaceholder(M.ramNicknameRequired).fill('小运维');
    await dialog.getByPlaceholder(M.ramUsernameRequired).fill('ops01');
    await dialog.getByPlaceholder(M.ramPasswordRequired).fill('opspass1');
    await settled(page);
    await screenshot(page, 'ram-create-dialog', dialog.getByPlaceholder(M.ramPasswordRequired));
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByRole('cell', { name: `ops01@${username}` }).waitFor();
    await page.getByText(`${M.ramQuota} 1/10`).waitFor();
    await screenshot(page, 'ram-list', page.getByText(`${M.ramQuota} 1/10`));
  });

  it("signs in as the sub-account, and the main account reads what it did in the operation log", async () => {
    const context = await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' });
    const ramPage = await context.newPage();
    const ramCaptcha = trackCaptcha(ramPage, server);
    await signIn(ramPage, server, ramCaptcha, `ops01@${username}`, 'opspass1', true);
    // The reduced menu: no account info, no software login records, no sub-accounts or roles.
    const menu = ramPage.getByRole('navigation').or(ramPage.locator('.ant-menu')).first();
    await menu.getByText('账号中心').click();
    await menu.getByText('消息中心').waitFor();
    await menu.getByText('日志管理').click();
    await menu.getByText('在线日志').waitFor();
    await expect(menu.getByText('账号信息').count()).resolves.toBe(0);
    await expect(menu.getByText('软件登录记录').count()).resolves.toBe(0);
    await expect(menu.getByText('子账号管理').count()).resolves.toBe(0);
    await screenshot(ramPage, 'ram-sub-account-menu', menu.getByText('在线日志'));
    // The role's one network is all the sub-account sees, and it cannot create networks.
    await ramPage.goto(`${server.url}/network/lists`);
    await ramPage.getByRole('row', { name: /运维网络/ }).waitFor();
    await expect(ramPage.getByRole('row', { name: /财务网络/ }).count()).resolves.toBe(0);
    await expect(ramPage.getByRole('button', { name: new RegExp(M.networkCreate) }).count()).resolves.toBe(0);
    await screenshot(ramPage, 'ram-network-list', ramPage.getByRole('row', { name: /运维网络/ }));

    // Typing a page it may not see: the 403 page, and the page makes no call.
    const ramCalls: string[] = [];
    ramPage.on('request', (r) => {
      if (r.url().includes('/api/v1/ram/')) ramCalls.push(r.url());
    });
    for (const path of ['/ram/index', '/account/info', '/network/create']) {
      await ramPage.goto(`${server.url}${path}`);
      await ramPage.getByText(M.pageForbidden).waitFor();
    }
    expect(ramCalls).toEqual([]);
    await expect(ramPage.getByText(M.deniedMainOnly).count()).resolves.toBe(0);
    for (const width of [1440, 1280, 390]) {
      await ramPage.setViewportSize({ width, height: 860 });
      await screenshot(ramPage, `ram-sub-account-forbidden-${width}`, ramPage.getByText(M.pageForbidden));
    }
    await ramPage.setViewportSize(CONTEXT.viewport);
    await ramPage.getByRole('button', { name: M.backToOverview }).click();
    await expectPath(ramPage, '/dashboard');
    await (await openUserMenu(ramPage, /小运维/, M.logoutAction)).click();
    await ramPage.getByRole('dialog', { name: M.confirmLogout }).waitFor();
    await settled(ramPage);
    await ramPage.getByRole('button', { name: /确\s?定|OK/ }).click();
    await expectPath(ramPage, '/login');
    await context.close();

    await page.goto(`${server.url}/ram/index`);
    const row = page.getByRole('row', { name: new RegExp(`ops01@${username}`) });
    await row.getByRole('button', { name: M.ramActionLog }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(M.logoutSuccess).waitFor();
    await settled(page);
    await screenshot(page, 'ram-log', dialog.getByText(M.logoutSuccess));
    await dialog.getByRole('button', { name: /Close|关闭/ }).click();
  });

  it('deletes the sub-account after confirmation', async () => {
    await page.goto(`${server.url}/ram/index`);
    const row = page.getByRole('row', { name: new RegExp(`ops01@${username}`) });
    await row.getByRole('button', { name: M.ramActionDelete }).click();
    await page.getByText(M.confirmDelete).waitFor();
    await settled(page);
    await page.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByText(`${M.ramQuota} 0/10`).waitFor();
    await expect(page.getByRole('cell', { name: `ops01@${username}` }).count()).resolves.toBe(0);
  });
});
