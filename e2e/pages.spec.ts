import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { publish } from '../packages/server/src/modules/announcement/service';
import { NOT_FOUND_PATH } from '../packages/web/src/session/paths';
import { CONTEXT, expectPath, launch, openInConsole, openUserMenu, postAs, registerByApi, SCREENS, screenshot, settle, signIn, startServer, trackCaptcha, type Server } from './support';

// Every page of the route table, signed in as a seeded tenant (the sign-in pages signed out), loaded at
// 1440, 1280 and 390 px: no page scrolls sideways or logs an error, a picture of each, and axe-core
// finds no serious or critical violation (at 1440 and 390, where the layout differs most, and at 1280
// for the widest pages; the rest lay out at 1280 as at 1440). One browser, one server, the pages in a
// loop. Then the most used dialogs and drawers, open, checked alone, and the layout's own checks at the
// widths (the member table's actions, the sidebar, the phone's menu drawer).

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Signing in again or out would end the session the other pages need: these are visited signed out. */
const SIGNED_OUT = new Set(['/login', '/login/index', '/register', '/reset']);

/** The paths of the console's route table (read as text: the table is a .tsx module of the web build). */
function routePaths(): string[] {
  const table = fs.readFileSync(new URL('../packages/web/src/app/routes.tsx', import.meta.url), 'utf8');
  const literal = [...table.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1]!);
  return table.includes('path: NOT_FOUND_PATH') ? [...literal, NOT_FOUND_PATH] : literal;
}

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** The pages whose tables and topology lose room first: axe checks them at 1280 px too. */
const WIDE = new Set(['/network/detail', '/router/lists', '/audit']);

/** Resizes the viewport and waits until the page has laid out at the new width (the phone layout is a React state). */
async function resize(page: Page, width: number) {
  await page.setViewportSize({ width, height: CONTEXT.viewport.height });
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Marks the open dialog or drawer (the last visible role="dialog") as what the checks look at. */
const SCOPE = 'data-a11y-scope';

/**
 * The page's serious and critical violations (only the marked dialog's with `scoped`). The console's
 * CSP refuses inline scripts (so no addScriptTag with content); evaluating the source through the
 * DevTools protocol is not subject to it, and the CSP stays on, as users have it.
 */
async function violationsOf(page: Page, scoped = false): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (scope) => {
    const axe = (window as unknown as { axe: { run(ctx: Document | Element, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; html: string; failureSummary: string }[] }[] }> } }).axe;
    const result = await axe.run(scope ? document.querySelector(`[${scope}]`)! : document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} — ${n.failureSummary.replace(/\s+/g, ' ')}`) }));
  }, scoped ? SCOPE : null);
}

/** aria-labels a screen reader would read out in English (a run of lowercase letters: 'close', 'search'). */
function englishLabelsOf(page: Page, scoped = false): Promise<string[]> {
  return page.evaluate(
    (scope) =>
      Array.from((scope ? document.querySelector(`[${scope}]`)! : document).querySelectorAll('[aria-label]'))
        .filter((el) => !el.closest('[aria-hidden="true"]'))
        .map((el) => el.getAttribute('aria-label') ?? '')
        .filter((label) => /^[\x20-\x7e]*$/.test(label) && /(^|\s)[a-z]{3,}/.test(label)),
    scoped ? SCOPE : null,
  );
}

/** What is wrong with the page as it shows now: its <h1> count, English aria-labels, axe's findings. */
async function problemsOf(on: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  const h1 = await on.locator('h1').count();
  if (h1 !== 1) found.push(`${where}: ${h1} <h1> elements (one per page)`);
  for (const label of await englishLabelsOf(on)) found.push(`${where}: an English aria-label in a Chinese console: ${label}`);
  for (const v of await violationsOf(on)) found.push(`${where}: [${v.impact}] ${v.id} (${v.help})\n    ${v.nodes.join('\n    ')}`);
  return found;
}

/**
 * What is wrong with the dialog or drawer just opened, alone (the page behind was checked on its own):
 * English aria-labels and axe's findings within it (its name, its fields' labels, its contrast over the
 * mask). Waits until it has finished opening. The <h1> count is the page's, checked with the page.
 */
async function dialogProblemsOf(on: Page, where: string): Promise<string[]> {
  await on.getByRole('dialog').last().waitFor();
  await settle(on);
  const marked = await on.evaluate((scope) => {
    document.querySelectorAll(`[${scope}]`).forEach((el) => el.removeAttribute(scope));
    const open = Array.from(document.querySelectorAll('[role="dialog"]')).filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
    open.at(-1)?.setAttribute(scope, '');
    return open.length;
  }, SCOPE);
  if (marked === 0) return [`${where}: no open role="dialog"`];
  const found: string[] = [];
  for (const label of await englishLabelsOf(on, true)) found.push(`${where}: an English aria-label in a Chinese console: ${label}`);
  for (const v of await violationsOf(on, true)) found.push(`${where}: [${v.impact}] ${v.id} (${v.help})\n    ${v.nodes.join('\n    ')}`);
  return found;
}

/** Closes the open dialog or drawer with Escape and waits until none shows. */
async function closeDialog(on: Page) {
  await on.keyboard.press('Escape');
  await on.getByRole('dialog').last().waitFor({ state: 'hidden' });
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

const slug = (path: string) => path.replace(/^\//, '').replace(/[/?=&]/g, '-') || 'root';

describe('every page of the console at 1440, 1280 and 390 px, and axe-core on it', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const username = `pages${Date.now() % 1_000_000}`;
  const password = 'secret123';
  const urls = new Map<string, string>();
  const context = { ...CONTEXT, reducedMotion: 'reduce' } as const;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext(context)).newPage();
    errors = errorsOf(page);
    // Long names and notes, so that the pages show how they wrap.
    await registerByApi(server, { username, password, phone: `136${String(Date.now()).slice(-8)}`, nickname: '名字很长的网络管理员用户' });
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
    urls.set('/network/pop_edit', `/network/pop_edit?network_number=${number}`);
    // A sub-account, for the change-password dialog (only sub-accounts have it in the user menu).
    const role = await postAs<{ id: number }>(server, page, '/ram_role/create', { name: '只读', note: '', auth: {} });
    await postAs(server, page, '/ram/create', { role_id: role.data!.id, nickname: '无障碍运维', username: 'a11yops', password: 'opspass1' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const paths = routePaths();

  it('visits every page of the route table, the not-found page included', () => {
    expect(paths).toContain(NOT_FOUND_PATH);
    expect(paths.length).toBeGreaterThan(40);
    for (const wide of WIDE) expect(paths).toContain(wide);
  });

  /**
   * Opens a page at the viewport's width; returns what is wrong with it (empty when nothing is). With
   * `inConsole` the console already loaded at this width goes there as its links do (the router follows
   * history): each page still mounts at the width, without loading and compiling the console again.
   */
  async function visit(on: Page, seen: string[], path: string, width: number, inConsole = false): Promise<string[]> {
    seen.length = 0;
    const url = urls.get(path) ?? path;
    if (inConsole) await openInConsole(on, url);
    else await on.goto(`${server.url}${url}`);
    await settle(on);
    const { scrollWidth, clientWidth } = await on.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    // Every route of the table, so the page is named generically: the console has drawn something.
    await screenshot(on, `width-${width}-${slug(path)}`, '#root > *');
    const wrong = seen.map((e) => `${url} at ${width}: ${e}`);
    if (scrollWidth > clientWidth) wrong.push(`${url} at ${width}: scrolls sideways (${scrollWidth} > ${clientWidth})`);
    if (width !== 1280 || WIDE.has(path)) wrong.push(...(await problemsOf(on, `${url} at ${width} px`)));
    return wrong;
  }

  for (const size of SCREENS) {
    it(`at ${size.width}: no page scrolls sideways, logs an error or has a serious or critical axe violation`, async () => {
      await page.setViewportSize(size);
      const guest = await (await browser.newContext({ ...context, viewport: size })).newPage();
      const guestErrors = errorsOf(guest);
      const wrong: string[] = [];
      try {
        for (const [i, path] of paths.filter((p) => !SIGNED_OUT.has(p)).entries()) wrong.push(...(await visit(page, errors, path, size.width, i > 0)));
        for (const path of paths.filter((p) => SIGNED_OUT.has(p))) wrong.push(...(await visit(guest, guestErrors, path, size.width)));
      } finally {
        await guest.context().close();
        await page.setViewportSize(CONTEXT.viewport);
      }
      if (wrong.length > 0) console.log(wrong.join('\n'));
      expect(wrong).toEqual([]);
    }, 600_000);
  }

  it('finds none in the most used dialogs and drawers, open', async () => {
    const found: string[] = [];
    // Member add, on both tabs of the member list (the dialog differs: device or software account).
    for (const [type, title] of [['1', M.memberAddHardwareTitle], ['2', M.memberAddSoftwareTitle]] as const) {
      await page.goto(`${server.url}/router/lists?type=${type}`);
      await settle(page);
      await page.getByRole('button', { name: new RegExp(M.memberAdd) }).click();
      await page.getByRole('dialog').getByText(title).waitFor();
      found.push(...(await dialogProblemsOf(page, title)));
      await closeDialog(page);
    }
    // Sub-account add.
    await page.goto(`${server.url}/ram/index`);
    await settle(page);
    await page.getByRole('button', { name: new RegExp(M.ramCreate) }).click();
    found.push(...(await dialogProblemsOf(page, M.ramCreate)));
    await closeDialog(page);
    // The settings drawer behind the top bar's gear.
    await page.goto(`${server.url}/network/lists`);
    await settle(page);
    await page.getByRole('button', { name: M.settingsTitle }).click();
    found.push(...(await dialogProblemsOf(page, M.settingsTitle)));
    await closeDialog(page);
    // The menu drawer of a phone.
    await resize(page, 390);
    try {
      await page.getByRole('button', { name: M.openMenu }).click();
      found.push(...(await dialogProblemsOf(page, `${M.sideMenu} at 390 px`)));
      await screenshot(page, 'a11y-menu-drawer-390', page.getByRole('dialog', { name: M.sideMenu }));
      await closeDialog(page);
    } finally {
      await page.setViewportSize(CONTEXT.viewport);
    }
    // The change-password dialog of the user menu (a sub-account's: main accounts change it elsewhere).
    const ram = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' })).newPage();
    try {
      // Opened in sub-account mode (switching to it on the page loads a second captcha, racing the answer).
      const captcha = trackCaptcha(ram, server);
      await ram.goto(`${server.url}/login?redirect=%2Fdashboard&mode=ram`);
      await ram.getByLabel('账号').fill(`a11yops@${username}`);
      await ram.getByLabel('密码').fill('opspass1');
      await ram.getByLabel('验证码').fill(await captcha.answer());
      await ram.getByLabel('验证码').press('Enter');
      await expectPath(ram, '/dashboard');
      await settle(ram);
      await (await openUserMenu(ram, /无障碍运维/, M.changePassword)).click();
      found.push(...(await dialogProblemsOf(ram, M.changePassword)));
      await screenshot(ram, 'a11y-change-password', ram.getByRole('dialog', { name: M.changePassword }));
    } finally {
      await ram.context().close();
    }
    if (found.length > 0) console.log(found.join('\n'));
    expect(found).toEqual([]);
  }, 180_000);

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
