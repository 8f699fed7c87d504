import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT, launch, startServer, type Server } from './support';

/**
 * A cold load of the sign-in page as a browser gets it: every script compressed and cached for good,
 * and a chunk that fails to load (a deploy since the tab opened) answered by one reload. The cold
 * load's figures go to the log for docs/performance.md.
 */
describe('the console as the browser loads it', () => {
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends every script of a cold sign-in brotli-compressed and immutable, and the page revalidated, with no CSP refusal', async () => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    const scripts: Response[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('.js')) scripts.push(res);
    });
    // The shell chunk holds zod and the contract's schemas: configured first, zod never tries eval (a CSP report).
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    const started = Date.now();
    const document = await page.goto(`${server.url}/login`);
    await page.locator('input[type="password"]').waitFor();
    const formAfterMs = Date.now() - started;

    expect(document?.headers()['cache-control']).toBe('no-cache');
    let raw = 0;
    let sent = 0;
    for (const res of scripts) {
      const headers = await res.allHeaders();
      const size = (await res.body()).length;
      // The build leaves scripts under a kilobyte as they are.
      const encoding = size < 1024 ? undefined : 'br';
      expect({ url: res.url(), status: res.status(), encoding: headers['content-encoding'] }).toEqual({ url: res.url(), status: 200, encoding });
      expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
      raw += size;
      sent += (await res.request().sizes()).responseBodySize;
    }
    console.log(`cold /login: ${scripts.length} scripts, ${(raw / 1024).toFixed(0)} KB raw, ${(sent / 1024).toFixed(0)} KB sent (brotli), form after ${formAfterMs} ms`);
    expect(sent).toBeLessThan(raw / 2);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('reloads once when a page chunk fails to load, and shows the page from the reloaded console', async () => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.locator('input[type="password"]').waitFor();

    // The register page's chunk is gone once (as after a deploy); the reloaded console finds it.
    let refused = 0;
    await page.route(/\/assets\/RegisterPage-[^/]+\.js$/, (route) => (refused++ === 0 ? route.abort() : route.continue()));
    let loads = 0;
    page.on('load', () => loads++);
    await page.evaluate(() => {
      history.pushState(null, '', '/register');
      dispatchEvent(new PopStateEvent('popstate'));
    });

    // The register form: a password and its confirmation.
    await page.locator('input[type="password"]').nth(1).waitFor();
    expect(refused).toBe(2);
    expect(loads).toBe(1);
    await context.close();
  });
});
