import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { CONTEXT, expectPath, launch, openUserMenu, postAs, registerByApi, SCREEN_WIDTHS, SCREENSHOTS, settled, signIn, startServer, trackCaptcha, WAIT_MS, type Server } from './support';

// One session per browser (docs/decisions.md, "One session per browser"): two tabs of one browser
// context share the session. A refresh rotates the token (the old one stops working on the server);
// the unit tests of api/client.ts hold the races of a call under way while another tab refreshes.

/** Makes tab `page`'s token look a minute from its end, so its next call refreshes it. */
async function ageToken(page: Page) {
  await page.evaluate(() => {
    const soon = String(Date.now() + 60_000);
    sessionStorage.setItem('ExpiresAt', soon);
    document.cookie = `ExpiresAt=${soon}; path=/; max-age=60; SameSite=Lax`;
  });
}

/** Whether an answer of the API refused the session (the codes of spec 1 §8 from 2000 on). */
async function refusedSession(r: Response): Promise<boolean> {
  if (!r.url().includes('/api/v1/')) return false;
  try {
    const env = (await r.json()) as { code?: number };
    return (env.code ?? 0) >= 2000;
  } catch {
    return false;
  }
}

/** Records every refused session of a page and the refreshes it made. */
function watch(page: Page) {
  const seen = { refusals: [] as string[], refreshes: 0 };
  page.on('response', (r) => {
    if (r.url().includes('/api/v1/login/refresh') && r.status() === 200) seen.refreshes += 1;
    void refusedSession(r).then((refused) => refused && seen.refusals.push(r.url()));
  });
  return seen;
}

/**
 * Signs in on the login page the tab shows now (keeping its redirect). The address can say /login while
 * the page it left is still drawn (on a loaded machine the dashboard's 子账号 figure is labelled 账号 too):
 * the form's own field is waited for first.
 */
async function signInHere(page: Page, captcha: ReturnType<typeof trackCaptcha>, username: string, password: string) {
  await page.getByRole('textbox', { name: '账号', exact: true }).fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('验证码').fill(await captcha.answer());
  await page.getByLabel('验证码').press('Enter');
}

/**
 * Pictures at each width once `ready` shows and the fonts are in. Not support's screenshot(): it waits
 * for the context to have no request in flight, and the other tab's reload leaves Chromium's favicon
 * request of the page it left without an end.
 */
async function picturesAtWidths(page: Page, name: string, ready: Locator) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await ready.waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(async () => {
      await document.fonts.ready;
    });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(CONTEXT.viewport);
}

describe('tabs share one session', () => {
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  let a: Page;
  let b: Page;
  let captchaA: ReturnType<typeof trackCaptcha>;
  let captchaB: ReturnType<typeof trackCaptcha>;
  let seenB: ReturnType<typeof watch>;
  const username = `tabs${Date.now() % 1_000_000}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    context = await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' });
    a = await context.newPage();
    b = await context.newPage();
    captchaA = trackCaptcha(a, server);
    captchaB = trackCaptcha(b, server);
    seenB = watch(b);
    await registerByApi(server, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '多标签用户' });
    await signIn(a, server, captchaA, username, password);
    // A valid profile, so the account form can be saved as it stands.
    await postAs(server, a, '/account/edit_data', { nickname: '多标签用户', birthday: '1990-01-01', industry: 'I1', occupation: '运维' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a new tab opens signed in', async () => {
    await b.goto(`${server.url}/network/lists`);
    await expectPath(b, '/network/lists');
    await b.getByRole('table').first().waitFor();
  });

  it('a token refreshed in tab A is used by tab B: B stays signed in', async () => {
    const seenA = watch(a);
    await ageToken(a);
    await a.goto(`${server.url}/account/message`);
    await a.getByRole('heading', { level: 1, name: M.routeMessages }).waitFor();
    await expect.poll(() => seenA.refreshes).toBeGreaterThan(0);
    // B still holds the token A has just replaced (and the server has ended).
    await b.goto(`${server.url}/account/message`);
    await b.getByRole('heading', { level: 1, name: M.routeMessages }).waitFor();
    await b.waitForLoadState('networkidle');
    expect(b.url()).toContain('/account/message');
    expect(seenB.refusals).toEqual([]);
    // A new tab still opens signed in: nobody deleted the shared cookie.
    const c = await context.newPage();
    await c.goto(`${server.url}/dashboard`);
    await expectPath(c, '/dashboard');
    await c.close();
  });

  it('signing out in tab A signs tab B out; signing in again in A brings B back to its page', async () => {
    await b.goto(`${server.url}/network/lists`);
    await b.getByRole('table').first().waitFor();
    await a.goto(`${server.url}/dashboard`);
    await (await openUserMenu(a, /多标签用户/, M.logoutAction)).click();
    await a.getByRole('dialog', { name: M.confirmLogout }).waitFor();
    await settled(a);
    await a.getByRole('button', { name: /确\s?定/ }).click();
    await expectPath(a, '/login');
    // B, without a click, is at the login page with its way back.
    await b.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/network/lists', { timeout: WAIT_MS });

    await signInHere(a, captchaA, username, password);
    await expectPath(a, '/dashboard');
    await b.waitForURL((u) => u.pathname === '/network/lists', { timeout: WAIT_MS });
    await b.getByRole('table').first().waitFor();
  });

  it('a session that ends mid-form: the login page says so after the reload, and signing in returns to the form', async () => {
    // A rests on an open page that makes no call of the session, so B is the first to find it ended.
    await a.goto(`${server.url}/download`);
    await a.getByRole('button', { name: M.navConsole }).waitFor();
    await b.goto(`${server.url}/account/info`);
    const nickname = b.getByLabel(M.profileNickname);
    await expect.poll(() => nickname.inputValue()).toBe('多标签用户');
    await nickname.fill('改了一半');
    // The session ends on the server (another device changed the password, an operator ended it).
    await server.ctx.db.updateTable('session').set({ revoked_at: Date.now() }).where('revoked_at', 'is', null).execute();
    await b.getByRole('button', { name: /保\s?存/ }).click();

    await b.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/account/info', { timeout: WAIT_MS });
    const notice = b.getByRole('alert').filter({ hasText: M.tokenExpired });
    await notice.waitFor();
    expect(await notice.textContent()).toBe('登录已过期，请重新登录!');
    // The other tab was told too: signed out where it stands.
    await a.getByRole('button', { name: /^登\s?录$/ }).waitFor();
    await picturesAtWidths(b, 'session-expired-login', notice);

    await signInHere(b, captchaB, username, password);
    await expectPath(b, '/account/info');
    await b.getByLabel(M.profileNickname).waitFor();
    expect(await b.getByRole('alert').filter({ hasText: M.tokenExpired }).count()).toBe(0);
    // and A goes on with the session B started.
    await a.getByRole('button', { name: M.navConsole }).waitFor();
  });
});
