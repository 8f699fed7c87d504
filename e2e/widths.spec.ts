import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { publish } from '../packages/server/src/modules/announcement/service';
import { NOT_FOUND_PATH } from '../packages/web/src/app/paths';
import { CONTEXT, launch, postAs, registerByApi, screenshot, signIn, startServer, trackCaptcha, type Server } from './support';

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

/** Signing in again or out would end the session the other pages need: these are visited signed out. */
const SIGNED_OUT = new Set(['/login', '/login/index', '/register', '/reset']);

/** What a page that keeps polling never reaches: its first answers are in, its spinners gone. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'));
}

/** Records the console errors and uncaught exceptions of a page. */
function errorsOf(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** The paths of the console's route table (read as text: the table is a .tsx module of the web build). */
function routePaths(): string[] {
  const table = fs.readFileSync(new URL('../packages/web/src/app/routes.tsx', import.meta.url), 'utf8');
  const literal = [...table.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1]!);
  return table.includes('path: NOT_FOUND_PATH') ? [...literal, NOT_FOUND_PATH] : literal;
}

const slug = (path: string) => path.replace(/^\//, '').replace(/[/?=&]/g, '-') || 'root';

describe('every page at 1440, 1280 and 390 pixels wide', () => {
  let server: Server;
  let browser: Browser;
  let signedIn: BrowserContext;
  let page: Page;
  let errors: string[];
  const username = `wid${Date.now() % 1_000_000}`;
  const password = 'secret123';
  const urls = new Map<string, string>();

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    signedIn = await browser.newContext(CONTEXT);
    page = await signedIn.newPage();
    errors = errorsOf(page);
    await registerByApi(server, { username, password, phone: `135${String(Date.now()).slice(-8)}`, nickname: '名字很长的网络管理员用户' });
    await signIn(page, server, trackCaptcha(page, server), username, password);
    for (const name of ['gw_width01', 'gw_width02']) await postAs(server, page, '/router/add', { router_type: 1, username: name, password: 'devsecret1', note: '华东机房的出口网关设备' });
    await postAs(server, page, '/router/add', { router_type: 2, username: 'alice01', password: 'devsecret1', note: '财务部的笔记本电脑' });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '华东办公网络', center: ['gw_width01'], point: ['gw_width02', 'alice01'] });
    const announcement = await publish(server.ctx, { title: '新增华东POP节点', tag: '产品动态', content: '<p>华东POP节点已上线。</p>' });
    const number = created.data!.network_number;
    urls.set('/network/detail', `/network/detail?network_number=${number}`);
    urls.set('/network/edit', `/network/edit?network_number=${number}`);
    urls.set('/account/announcements/detail', `/account/announcements/detail?id=${announcement}`);
    urls.set('/router/lists', '/router/lists?type=2');
    urls.set('/router/detail', '/router/detail?router_name=gw_width01');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Visits a page at a width; returns what is wrong with it (empty when nothing is). */
  async function visit(on: Page, seen: string[], path: string, width: number): Promise<string[]> {
    seen.length = 0;
    const url = urls.get(path) ?? path;
    await on.goto(`${server.url}${url}`);
    await settle(on);
    const { scrollWidth, clientWidth } = await on.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    // Every route of the table, so the page is named generically: the console has drawn something.
    await screenshot(on, `width-${width}-${slug(path)}`, '#root > *');
    const wrong = seen.map((e) => `${url} at ${width}: ${e}`);
    if (scrollWidth > clientWidth) wrong.push(`${url} at ${width}: scrolls sideways (${scrollWidth} > ${clientWidth})`);
    return wrong;
  }

  const paths = routePaths();

  for (const size of WIDTHS) {
    it(`at ${size.width}: no page scrolls sideways or logs an error`, async () => {
      await page.setViewportSize(size);
      const signedOut = await browser.newContext({ ...CONTEXT, viewport: size });
      const guest = await signedOut.newPage();
      const guestErrors = errorsOf(guest);
      const wrong: string[] = [];
      for (const path of paths.filter((p) => !SIGNED_OUT.has(p))) wrong.push(...(await visit(page, errors, path, size.width)));
      for (const path of paths.filter((p) => SIGNED_OUT.has(p))) wrong.push(...(await visit(guest, guestErrors, path, size.width)));
      await signedOut.close();
      expect(wrong).toEqual([]);
    }, 300_000);
  }

  it('visits every page of the route table, the not-found page included', () => {
    expect(paths).toContain(NOT_FOUND_PATH);
    expect(paths.length).toBeGreaterThan(40);
  });

  it('at 1280 the member table shows every action of a row, none covered', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}/router/lists?type=2`);
    const row = page.getByRole('row', { name: /alice01/ });
    // The phone and password actions are under 更多 (issue 31), named with the member as the records one is.
    for (const name of [M.memberActionRecords, M.memberActionMore, M.memberActionDelete]) {
      const button = row.getByRole('button', { name: new RegExp(`^${name}( alice01)?$`) });
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      expect(hit?.replace(/\s/g, '')).toBe(name.replace(/\s/g, ''));
    }
  });

  it('on a long page the sidebar fills the window and stays in place while the page scrolls', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}${urls.get('/network/detail')}`);
    await settle(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 0);
    const { menuTop, siderBottom, menuHeight } = await page.evaluate(() => ({
      menuTop: document.querySelector('.hl-sider-inner')!.getBoundingClientRect().top,
      menuHeight: document.querySelector('.hl-sider-inner')!.getBoundingClientRect().height,
      siderBottom: document.querySelector('.ant-layout-sider')!.getBoundingClientRect().bottom,
    }));
    expect(menuTop).toBeCloseTo(0, 0);
    expect(menuHeight).toBeCloseTo(720, 0);
    expect(siderBottom).toBeGreaterThanOrEqual(720);
    await screenshot(page, 'width-1280-sidebar-scrolled', '.hl-sider-inner');
  });

  it('at 390 the top bar opens the side menu as a drawer, and a chosen page closes it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/dashboard`);
    await settle(page);
    expect(await page.locator('.ant-layout-sider').count()).toBe(0);
    await page.getByRole('button', { name: M.openMenu }).click();
    const menu = page.getByRole('menu', { name: M.sideMenu });
    await menu.getByText(M.menuAccount).click();
    await menu.getByText(M.routeAccountInfo).waitFor();
    await page.waitForFunction(() => !document.querySelector('[class*="-enter"], [class*="-appear"]'));
    await screenshot(page, 'width-390-menu-drawer', menu);
    await menu.getByText(M.routeAccountInfo).click();
    await page.waitForURL((u) => u.pathname === '/account/info');
    await menu.waitFor({ state: 'hidden' });
  });
});
