import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { CONTEXT, expectPath, launch, registerByApi, SCREEN_WIDTHS, screenshot, signIn, startServer, trackCaptcha, type Server } from './support';

async function atEveryWidth(page: Page, name: string) {
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 860 });
    await screenshot(page, `${name}-${width}`, 'form');
  }
  await page.setViewportSize(CONTEXT.viewport);
}

describe('navigation in Chromium: stale links and the sub-account sign-in URL', () => {
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  const username = `nav${Date.now() % 1_000_000}`;
  const phone = `136${String(Date.now()).slice(-8)}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    await registerByApi(server, { username, password, phone });
    await signIn(page, server, trackCaptcha(page, server), username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a stale network link in a new tab: the message, then the network list instead of about:blank', async () => {
    const tab = await context.newPage();
    await tab.goto(`${server.url}/network/detail?network_number=NO_SUCH_NETWORK`);
    await expectPath(tab, '/network/lists');
    await tab.locator('.ant-message-notice').first().waitFor();
    await screenshot(tab, 'navigation-stale-network-link', tab.locator('.ant-message-notice'));
    await tab.close();
  });

  it('keeps sub-account sign-in in the URL, through a reload, without recovery or registration', async () => {
    const visitor = await browser.newContext(CONTEXT);
    const page = await visitor.newPage();
    await page.goto(`${server.url}/login?redirect=/router/lists`);
    await page.getByText(M.ramLoginTitle).last().click();
    await page.waitForURL((u) => u.searchParams.get('mode') === 'ram' && u.searchParams.get('redirect') === '/router/lists');
    await page.reload();
    await page.getByRole('heading', { name: M.ramLoginTitle }).waitFor();
    await expect(page.getByRole('link', { name: M.forgotPassword }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: M.registerTitle }).count()).resolves.toBe(0);
    await atEveryWidth(page, 'navigation-login-ram');
    await visitor.close();
  });
});
