import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { send } from '../packages/server/src/modules/message/service';
import { seedMembers, seedNetwork } from '../packages/server/test/networks';
import { CONTEXT, launch, registerByApi, settle, settled, signIn, startServer, trackCaptcha, type Server } from './support';

declare global {
  interface Window {
    /** What the page's Content Security Policy refused, as the browser reported it. */
    cspViolations: string[];
  }
}

/**
 * The console under its Content Security Policy in Chromium: every page and the dialogs that add
 * style elements of their own, with nothing refused and every style applied.
 */
describe('the console under its Content Security Policy', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let networkNumber: string;
  const username = `csp${Date.now() % 1_000_000}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const context = await browser.newContext(CONTEXT);
    await context.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`);
      });
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await registerByApi(server, { username, password, phone: `135${String(Date.now()).slice(-8)}`, nickname: '安全测试' });
    const tenant = await server.ctx.db.selectFrom('account').select('id').where('username_key', '=', username).executeTakeFirstOrThrow();
    await send(server.ctx, tenant.id, { title: '带样式的消息', content: '<p><span style="color: #ff4d4f">红色提醒</span>，请留意。</p>' });
    await server.ctx.db.updateTable('account').set({ network_router_count: 20 }).where('id', '=', tenant.id).execute();
    // seedMembers and seedNetwork take a TestApp; they only use its db.
    const t = { db: server.ctx.db } as Parameters<typeof seedMembers>[0];
    await seedMembers(t, tenant.id, ['cspcenter', 'csppoint1', 'csppoint2']);
    networkNumber = (await seedNetwork(t, tenant.id, { center: ['cspcenter'], point: ['csppoint1', 'csppoint2'], name: '安全网络' })).network_number;
    await signIn(page, server, trackCaptcha(page, server), username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const violations = () => page.evaluate(() => window.cspViolations);

  it('the page and every answer carry the security headers; the page has a fresh nonce each time', async () => {
    const first = await page.request.get(`${server.url}/dashboard`);
    const second = await page.request.get(`${server.url}/dashboard`);
    const nonceOf = (csp: string) => /style-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];
    const [a, b] = [nonceOf(first.headers()['content-security-policy']!), nonceOf(second.headers()['content-security-policy']!)];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
    expect(await first.text()).toContain(`<meta property="csp-nonce" nonce="${a}">`);
    for (const res of [first, await page.request.get(`${server.url}/api/v1/verify/code`)]) {
      expect(res.headers()).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'strict-origin-when-cross-origin',
      });
      expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('shows every page and their dialogs with nothing refused, antd styled, and the stored HTML styled', async () => {
    const visit = async (path: string, then?: () => Promise<void>) => {
      await page.goto(`${server.url}${path}`);
      await settle(page);
      await then?.();
      expect({ path, violations: await violations() }).toEqual({ path, violations: [] });
    };
    await visit('/dashboard', async () => {
      // antd's CSS-in-JS applied: the primary colour reaches the menu's selected item.
      const color = await page.locator('.ant-menu-item-selected').first().evaluate((el) => getComputedStyle(el).color);
      expect(color).toBe('rgb(20, 100, 224)'); // the theme's primary, #1464e0 (app/providers.tsx)
    });
    await visit('/account/message', async () => {
      await page.getByText('带样式的消息').click();
      const red = page.getByText('红色提醒');
      await red.waitFor();
      expect(await red.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 77, 79)');
    });
    await visit('/router/lists', async () => {
      // A modal locks the page's scrolling with a style element of its own.
      await page.getByRole('button', { name: new RegExp(M.memberAdd) }).click();
      await settled(page);
      await page.keyboard.press('Escape');
    });
    await visit('/network/lists');
    await visit(`/network/detail?network_number=${networkNumber}`, async () => {
      // The topology graph, with its tooltips: the mouse sweeps the canvas.
      await page.getByText(M.networkLinkTopology, { exact: true }).click();
      const box = (await page.locator('canvas').first().boundingBox())!;
      for (let x = 0.1; x < 1; x += 0.1) for (let y = 0.1; y < 1; y += 0.2) await page.mouse.move(box.x + box.width * x, box.y + box.height * y);
    });
    for (const path of ['/account', '/account/info', '/account/service', '/account/announcements', '/ram/index', '/ram/role', '/network/create']) await visit(path);
    await page.goto(`${server.url}/login`);
    await visit('/register');
    expect(errors).toEqual([]);
  });
});
