import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT, launch, screenshot, SCREENSHOTS } from './support';

// A page of its own, served by the browser's router: what screenshot() waits for, without the console.
const ORIGIN = 'http://console.test';

// The failures wait this long, not the whole condition timeout: what they wait for never comes.
const FAIL_MS = 3000;

describe('screenshot()', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser.close());
  afterEach(() => page.context().close());

  async function open(body: string) {
    page = await (await browser.newContext(CONTEXT)).newPage();
    await page.route(`${ORIGIN}/`, (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8">${body}` }));
    await page.goto(`${ORIGIN}/`);
  }

  it('takes the picture once the named element shows and nothing is pending', async () => {
    const file = path.join(SCREENSHOTS, 'screenshot-check.png');
    fs.rmSync(file, { force: true });
    await open('<h1>就绪</h1>');
    await page.route(`${ORIGIN}/api`, (r) => r.fulfill({ contentType: 'application/json', body: '{}' }));
    await page.evaluate(() => void fetch('/api'));
    await screenshot(page, 'screenshot-check', page.getByRole('heading', { name: '就绪' }));
    expect(fs.existsSync(file)).toBe(true);
  });

  it('fails while a request is still in flight', async () => {
    await open('<h1>就绪</h1>');
    await page.route(`${ORIGIN}/api/slow`, () => undefined); // never answered
    await Promise.all([page.waitForRequest(`${ORIGIN}/api/slow`), page.evaluate(() => void fetch('/api/slow'))]);
    await expect(screenshot(page, 'screenshot-pending', 'h1', FAIL_MS)).rejects.toThrow(`still waiting for ${ORIGIN}/api/slow`);
  });

  it('fails while an antd spinner spins', async () => {
    await open('<h1>就绪</h1><div class="ant-spin ant-spin-spinning"></div>');
    await expect(screenshot(page, 'screenshot-spinner', 'h1', FAIL_MS)).rejects.toThrow(/did not settle/);
  });

  it('fails when the named element never shows', async () => {
    await open('<h1>加载中</h1>');
    await expect(screenshot(page, 'screenshot-missing', page.getByRole('heading', { name: '就绪' }), FAIL_MS)).rejects.toThrow(/did not settle/);
  });
});
