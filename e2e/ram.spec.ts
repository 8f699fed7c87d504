import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { lastCode, launch, screenshot, startServer, trackCaptcha, type Server } from './support';

async function expectPath(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
  expect(new URL(page.url()).pathname).toBe(path);
}

async function post(server: Server, path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const env = (await res.json()) as { code: number; msg: string };
  if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
}

/** Waits until no dialog is still zooming in (a screenshot would catch it half-drawn). */
const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('[class*="zoom-appear"], [class*="zoom-enter"]'));

/** Signs in at /login (main account) or in the sub-account mode, and waits for the dashboard. */
async function signIn(page: Page, server: Server, captcha: ReturnType<typeof trackCaptcha>, username: string, password: string, ram = false) {
  await page.goto(`${server.url}/login?redirect=/dashboard`);
  if (ram) await page.getByText(M.ramLoginTitle).last().click();
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('验证码').fill(await captcha.answer());
  await page.getByLabel('验证码').press('Enter');
  await expectPath(page, '/dashboard');
}

/** The console's users and the server share a time zone: the log dialog's days are the server's days. */
const CONTEXT = { locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1366, height: 860 } };

describe('sub-accounts and roles in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let captcha: ReturnType<typeof trackCaptcha>;
  const username = `ram${Date.now() % 1_000_000}`;
  const phone = `137${String(Date.now()).slice(-8)}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const context = await browser.newContext(CONTEXT);
    page = await context.newPage();
    captcha = trackCaptcha(page, server);
    await post(server, '/verify/register', { send_type: 'phone', send_value: `+86 ${phone}` });
    const code = await lastCode(server, `+86 ${phone}`);
    await post(server, '/account/register', { nickname: '子账号管理', username, password, newPassword: password, code, type: 'phone', verify: `+86 ${phone}` });
    await signIn(page, server, captcha, username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a role whose network create is locked once a network is specified', async () => {
    await page.goto(`${server.url}/ram/role`);
    await page.getByRole('button', { name: new RegExp(M.roleCreate) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await dialog.getByText(M.roleNameRequired).waitFor();

    await dialog.getByPlaceholder(M.roleNameRequired).fill('网络运维');
    const members = dialog.getByRole('group', { name: M.rolePermRouter });
    await members.getByRole('checkbox', { name: M.permCreate }).check();
    const networks = dialog.getByRole('group', { name: M.rolePermNetwork });
    await networks.getByRole('checkbox', { name: M.permCreate }).check();
    await networks.getByRole('checkbox', { name: M.permEdit }).check();
    await dialog.getByRole('button', { name: new RegExp(M.roleNetworkAdd) }).click();
    await dialog.getByRole('textbox', { name: `${M.roleNetworks} 1` }).fill('N-1001');
    await expect.poll(() => networks.getByRole('checkbox', { name: M.permCreate }).isChecked()).toBe(false);
    await expect.poll(() => networks.getByRole('checkbox', { name: M.permCreate }).isDisabled()).toBe(true);
    await settled(page);
    await screenshot(page, 'ram-role-dialog');
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
    await screenshot(page, 'ram-create-dialog');
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByRole('cell', { name: `ops01@${username}` }).waitFor();
    await page.getByText(`${M.ramQuota} 1/10`).waitFor();
    await screenshot(page, 'ram-list');
  });

  it("signs in as the sub-account, and the main account reads what it did in the operation log", async () => {
    const context = await browser.newContext(CONTEXT);
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
    await screenshot(ramPage, 'ram-sub-account-menu');
    // Typing a main-account page by hand: its calls are refused by the server.
    await ramPage.goto(`${server.url}/ram/index`);
    await ramPage.getByText(M.deniedMainOnly).first().waitFor();
    await screenshot(ramPage, 'ram-sub-account-refused');
    await ramPage.getByRole('button', { name: /小运维/ }).hover();
    await ramPage.getByText(M.logoutAction).click();
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
    await screenshot(page, 'ram-log');
    await dialog.getByRole('button', { name: /Close|关闭/ }).click();
  });

  it('deletes the sub-account after confirmation', async () => {
    await page.goto(`${server.url}/ram/index`);
    const row = page.getByRole('row', { name: new RegExp(`ops01@${username}`) });
    await row.getByRole('button', { name: M.ramActionDelete }).click();
    await page.getByText(M.confirmDelete).waitFor();
    await page.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByText(`${M.ramQuota} 0/10`).waitFor();
    await expect(page.getByRole('cell', { name: `ops01@${username}` }).count()).resolves.toBe(0);
  });
});
