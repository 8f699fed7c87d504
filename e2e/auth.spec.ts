import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { lastCode, launch, openUserMenu, screenshot, settled, startServer, trackCaptcha, WAIT_MS, type Server } from './support';

async function expectPath(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: WAIT_MS });
  expect(new URL(page.url()).pathname).toBe(path);
}

describe('sign-in in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let captcha: ReturnType<typeof trackCaptcha>;
  const username = `e2e${Date.now() % 1_000_000}`;
  const phone = `139${String(Date.now()).slice(-8)}`;
  let password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 860 } });
    page = await context.newPage();
    captcha = trackCaptcha(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('guards the console: protected paths go to /login with a redirect, open paths stay open', async () => {
    await page.goto(`${server.url}/dashboard`);
    await expectPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    await screenshot(page, 'login', page.getByLabel('账号'));

    await page.goto(`${server.url}/clause`);
    await expectPath(page, '/clause');
    await expect(page.getByRole('heading').first().textContent()).resolves.toContain('服务条款');

    await page.goto(`${server.url}/no/such/page`);
    await expectPath(page, '/login');
  });

  it('registers a new account with a code from the outbox', async () => {
    await page.goto(`${server.url}/register`);
    // The empty form shows the spec's messages and sends nothing.
    await page.getByRole('button', { name: /^注\s?册$/ }).click();
    await page.getByText(M.nicknameRequired).waitFor();
    await page.getByText(M.termsRequired).waitFor();

    await page.getByLabel('昵称').fill('端到端测试');
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('密码', { exact: true }).fill(password);
    await page.getByLabel('确认密码').fill(password);
    await page.getByLabel('手机号码').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText(/\d+秒后重试/).waitFor();
    const code = await lastCode(server, `+86 ${phone}`);
    await page.getByLabel('验证码').fill(code);
    await page.getByRole('checkbox').check();
    await screenshot(page, 'register-filled', page.getByRole('button', { name: /^注\s?册$/ }));
    await page.getByRole('button', { name: /^注\s?册$/ }).click();
    await page.getByText(M.registerSuccess).first().waitFor();
    await screenshot(page, 'register-success', page.getByText(M.registerSuccess));
    await expectPath(page, '/login');
  });

  it('refuses a wrong captcha, clears it and loads a new image', async () => {
    await page.goto(`${server.url}/login?redirect=/dashboard`);
    await captcha.answer();
    await page.getByLabel('账号').fill(username);
    await page.getByLabel('密码').fill(password);
    await page.getByLabel('验证码').fill('zzzz');
    await captcha.renewedBy(() => page.getByLabel('验证码').press('Enter'));
    await page.getByText(M.captchaWrong).first().waitFor();
    await expect(page.getByLabel('验证码').inputValue()).resolves.toBe('');
  });

  it('signs in with the captcha (Enter submits) and lands on the redirect', async () => {
    await page.goto(`${server.url}/login?redirect=/dashboard`);
    await page.getByLabel('账号').fill(username);
    await page.getByLabel('密码').fill(password);
    await page.getByLabel('验证码').fill(await captcha.answer());
    await page.getByLabel('验证码').press('Enter');
    await expectPath(page, '/dashboard');
    await page.getByText('端到端测试').first().waitFor();
    await page.getByText(`+86 ${phone}`).first().waitFor();
    await screenshot(page, 'dashboard', page.getByText(`+86 ${phone}`));

    // Signed in, the login page sends you home.
    await page.goto(`${server.url}/login`);
    await expectPath(page, '/dashboard');
    // Unknown paths show the 404 page.
    await page.goto(`${server.url}/no/such/page`);
    await expectPath(page, '/404/index');
    await page.getByText(M.pageNotFound).first().waitFor();
    await screenshot(page, 'not-found', page.getByText(M.pageNotFound));
  });

  it('logs out after confirmation and is guarded again', async () => {
    await page.goto(`${server.url}/dashboard`);
    await (await openUserMenu(page, /端到端测试/, M.logoutAction)).click();
    await page.getByRole('dialog', { name: M.confirmLogout }).waitFor();
    await settled(page);
    await page.getByRole('button', { name: /确\s?定|OK/ }).click();
    await expectPath(page, '/login');
    await page.goto(`${server.url}/account/info`);
    await expectPath(page, '/login');
  });

  it('recovers the password in three steps and signs in with the new one', async () => {
    await page.goto(`${server.url}/reset`);
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('验证码').fill(await captcha.answer());
    await page.getByRole('button', { name: /下一步/ }).click();

    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText(/\d+秒后重试/).waitFor();
    await page.getByLabel('验证码').fill(await lastCode(server, `+86 ${phone}`));
    await screenshot(page, 'reset-step2', page.getByText(/\d+秒后重试/));
    await page.getByRole('button', { name: /下一步/ }).click();

    password = 'changed456';
    await page.getByLabel('新密码').fill(password);
    await page.getByLabel('重复密码').fill(password);
    await page.getByRole('button', { name: '确认修改' }).click();
    await page.getByText(M.resetSuccess).first().waitFor();
    await expectPath(page, '/login');
    await page.getByLabel('账号').fill(username);
    await page.getByLabel('密码').fill(password);
    await page.getByLabel('验证码').fill(await captcha.answer());
    await page.locator('form#login').getByRole('button', { name: /登\s?录/ }).click();
    await expectPath(page, '/dashboard');
  });
});
