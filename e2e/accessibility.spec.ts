import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../packages/server/src/modules/announcement/service';
import { NOT_FOUND_PATH } from '../packages/web/src/app/paths';
import { CONTEXT, launch, postAs, registerByApi, screenshotAtWidths, signIn, startServer, trackCaptcha, type Server } from './support';

// axe-core over every page of the route table, signed in as a seeded tenant (the sign-in pages
// signed out): no serious or critical violation. One browser, one server, the pages in a loop.

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

/** What a page that keeps polling never reaches: its first answers are in, its spinners and skeletons gone. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, [class*="-enter"], [class*="-appear"]'));
}

/**
 * The page's serious and critical violations. The console's CSP refuses inline scripts (so no
 * addScriptTag with content); evaluating the source through the DevTools protocol is not subject to it,
 * and the CSP stays on, as users have it.
 */
async function violationsOf(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; html: string; failureSummary: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} — ${n.failureSummary.replace(/\s+/g, ' ')}`) }));
  });
}

/** aria-labels a screen reader would read out in English (a run of lowercase letters: 'close', 'search'). */
function englishLabelsOf(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-label]'))
      .filter((el) => !el.closest('[aria-hidden="true"]'))
      .map((el) => el.getAttribute('aria-label') ?? '')
      .filter((label) => /^[\x20-\x7e]*$/.test(label) && /(^|\s)[a-z]{3,}/.test(label)),
  );
}

describe('every page of the console passes axe-core (no serious or critical violation)', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let guest: Page;
  const username = `a11y${Date.now() % 1_000_000}`;
  const password = 'secret123';
  const urls = new Map<string, string>();

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' })).newPage();
    guest = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' })).newPage();
    await registerByApi(server, { username, password, phone: `136${String(Date.now()).slice(-8)}`, nickname: '无障碍检查' });
    await signIn(page, server, trackCaptcha(page, server), username, password);
    for (const name of ['gw_a11y01', 'gw_a11y02']) await postAs(server, page, '/router/add', { router_type: 1, username: name, password: 'devsecret1', note: '出口网关' });
    await postAs(server, page, '/router/add', { router_type: 2, username: 'bob01', password: 'devsecret1', note: '笔记本电脑' });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '办公网络', center: ['gw_a11y01'], point: ['gw_a11y02', 'bob01'] });
    const announcement = await publish(server.ctx, { title: '新增POP节点', tag: '产品动态', content: '<p>POP节点已上线。</p>' });
    const number = created.data!.network_number;
    urls.set('/network/detail', `/network/detail?network_number=${number}`);
    urls.set('/network/edit', `/network/edit?network_number=${number}`);
    urls.set('/account/announcements/detail', `/account/announcements/detail?id=${announcement}`);
    urls.set('/router/lists', '/router/lists?type=2');
    urls.set('/router/detail', '/router/detail?router_name=gw_a11y01');
    urls.set('/network/pop_edit', `/network/pop_edit?network_number=${number}`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const paths = routePaths();

  it('visits every page of the route table', () => {
    expect(paths).toContain(NOT_FOUND_PATH);
    expect(paths.length).toBeGreaterThan(40);
  });

  it('finds no serious or critical violation on any page', async () => {
    const found: string[] = [];
    for (const path of paths) {
      const on = SIGNED_OUT.has(path) ? guest : page;
      const url = urls.get(path) ?? path;
      await on.goto(`${server.url}${url}`);
      await settle(on);
      const h1 = await on.locator('h1').count();
      if (h1 !== 1) found.push(`${url}: ${h1} <h1> elements (one per page)`);
      for (const label of await englishLabelsOf(on)) found.push(`${url}: an English aria-label in a Chinese console: ${label}`);
      for (const v of await violationsOf(on)) found.push(`${url}: [${v.impact}] ${v.id} (${v.help})\n    ${v.nodes.join('\n    ')}`);
    }
    if (found.length > 0) console.log(found.join('\n'));
    expect(found).toEqual([]);
  }, 600_000);

  it('pictures of the theme\'s colours: the sign-in page and a page of the console', async () => {
    await guest.goto(`${server.url}/login`);
    await screenshotAtWidths(guest, 'a11y-login', 'h1');
    await page.goto(`${server.url}${urls.get('/network/detail')}`);
    await settle(page);
    await screenshotAtWidths(page, 'a11y-network-detail', 'h1');
  }, 120_000);
});
