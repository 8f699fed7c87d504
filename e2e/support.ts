import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page, type Request } from 'playwright-core';
import type { Envelope, OutboxEntry } from '@hublink/contract';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import type { Ctx } from '../packages/server/src/core/context';
import type { Updateable } from 'kysely';
import type { AccountTable } from '../packages/server/src/db/types';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    conditionTimeoutMs: number;
  }
}

/** How long a test waits for a condition of the page: the suite's one setting (vitest.config.ts). */
export const WAIT_MS = inject('conditionTimeoutMs');

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results/screenshots');

export interface Server {
  url: string;
  /** The server's services, for seeding what the operator side would create (messages, services). */
  ctx: Ctx;
  /** Runs `hublink ops …` as the operator would: a process of its own on the server's data dir. */
  ops(args: string[]): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

const HUBLINK_BIN = path.resolve(import.meta.dirname, '../packages/server/bin/hublink.mjs');

/**
 * The real server on a free localhost port, with its own SQLite file and the dev endpoints on;
 * `env` adds configuration as the environment would give it (an SMTP server, short alert windows).
 */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-e2e-'));
  // HUBLINK_WEB_DIST lets a local run test a console built elsewhere (several builds side by side).
  const dist = process.env.HUBLINK_WEB_DIST ? { HUBLINK_WEB_DIST: process.env.HUBLINK_WEB_DIST } : {};
  const config = { ...loadConfig({ HUBLINK_DATA_DIR: dataDir, HUBLINK_DEV_ENDPOINTS: '1', HUBLINK_ALLOW_PRIVATE_TARGETS: '1', LOG_LEVEL: 'warn', ...dist, ...env }), prettyLogs: false };
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    // 'localhost' so the console sees its own host (branding, footer links).
    url: `http://localhost:${port}`,
    ctx: app.ctx,
    ops: (args) =>
      new Promise((resolve, reject) => {
        execFile(process.execPath, [HUBLINK_BIN, 'ops', ...args], { env: { ...process.env, HUBLINK_DATA_DIR: dataDir, ...env } }, (error, out, err) => {
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code: typeof error?.code === 'number' ? error.code : 0, out, err });
        });
      }),
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Chromium whose every context counts its requests in flight, so that screenshot() can wait for none. */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const newContext = browser.newContext.bind(browser);
  // Counting has to start with the context: a request already under way when a test asks is invisible.
  browser.newContext = async (options) => trackRequests(await newContext(options));
  return browser;
}

const inFlight = new WeakMap<BrowserContext, Set<Request>>();

function trackRequests(context: BrowserContext): BrowserContext {
  const pending = new Set<Request>();
  inFlight.set(context, pending);
  context.on('request', (r) => pending.add(r));
  context.on('requestfinished', (r) => pending.delete(r));
  context.on('requestfailed', (r) => pending.delete(r));
  return context;
}

/** Resolves once the page's context has no request in flight; rejects after `timeout`. */
async function noPendingRequest(page: Page, timeout: number): Promise<void> {
  const pending = inFlight.get(page.context());
  if (!pending) throw new Error('the page was not opened from a browser of launch(), so its requests are not counted');
  const context = page.context();
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (pending.size > 0) return;
      stop();
      resolve();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`still waiting for ${[...pending].map((r) => r.url()).join(', ')}`));
    }, timeout);
    const stop = () => {
      clearTimeout(timer);
      context.off('requestfinished', check);
      context.off('requestfailed', check);
    };
    context.on('requestfinished', check);
    context.on('requestfailed', check);
    check();
  });
}

/**
 * What shows while a page still loads: an antd spinner or skeleton, or an element still animating in
 * (not antd's click wave, which a switch also draws when its data turns it on: 2 s of decoration).
 */
const LOADING = '.ant-spin-spinning, .ant-skeleton-active, [class*="-enter"]:not(.ant-wave), [class*="-appear"]:not(.ant-wave)';

/**
 * Waits until no request is in flight, nothing matching `busy` shows and the web fonts have loaded, in
 * one pass that finds nothing pending at all (a finished request can start the next, a list after the
 * user, and a spinner can outlive its request). Unlike Playwright's 'networkidle' it does not wait a
 * further 500 ms of quiet, so a sweep over every page does not pay that on each of them.
 */
async function quiet(page: Page, busy: string, deadline: number) {
  const left = () => Math.max(deadline - Date.now(), 1);
  for (;;) {
    await noPendingRequest(page, left());
    await page.waitForFunction((selector) => !document.querySelector(selector), busy, { timeout: left() });
    await page.evaluate(async () => {
      await document.fonts.ready;
    });
    if (inFlight.get(page.context())!.size === 0) return;
  }
}

/**
 * Goes to `url` (path and query) in the console the page has loaded, as its links do: the router
 * follows history, so the page mounts without the console being loaded and compiled again. Resolves
 * once the page left behind is gone: its <h1> (each page draws its own) detached or saying something
 * else. Another query of the page shown now keeps its <h1>: that one is loaded as a new address is.
 * `settle` then waits for the new page's answers.
 */
export async function openInConsole(page: Page, url: string) {
  const here = new URL(page.url());
  const there = new URL(url, here);
  if (there.pathname === here.pathname) {
    await page.goto(there.href);
    return;
  }
  const left = await page.evaluateHandle((to) => {
    const h1 = document.querySelector('h1');
    const before = { h1, text: h1?.textContent };
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return before;
  }, url);
  await page.waitForFunction((before) => !before.h1?.isConnected || before.h1.textContent !== before.text, left, { timeout: WAIT_MS });
  await left.dispose();
}

/** Waits until the page's answers are in and nothing loads or animates in (a page of a browser from launch()). */
export async function settle(page: Page, waitMs = WAIT_MS) {
  await quiet(page, LOADING, Date.now() + waitMs);
}

/**
 * Saves a full-page screenshot once the page shows `ready` (an element the caller names, a locator or a
 * selector) and has settled: no antd spinner, no request in flight, web fonts loaded. A page that does
 * not get there within `waitMs` (WAIT_MS) fails the test instead of leaving a picture of a spinner.
 */
export async function screenshot(page: Page, name: string, ready: Locator | string, waitMs = WAIT_MS) {
  const element = typeof ready === 'string' ? page.locator(ready) : ready;
  const deadline = Date.now() + waitMs;
  try {
    await element.first().waitFor({ state: 'visible', timeout: Math.max(deadline - Date.now(), 1) });
    await quiet(page, '.ant-spin-spinning', deadline);
  } catch (e) {
    throw new Error(`screenshot ${name}: the page did not settle with ${String(element)} shown within ${waitMs} ms: ${(e as Error).message}`);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // A full-page picture of a scrolled page draws the sticky top bar and menu where the window was.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Waits until a chart's canvas has drawn the same picture for ten frames in a row (its animation is over). */
export async function canvasStill(canvas: Locator) {
  await canvas.evaluate(
    (el: HTMLCanvasElement, bound: number) =>
      new Promise<void>((resolve, reject) => {
        setTimeout(() => reject(new Error(`the chart was still moving after ${bound} ms`)), bound);
        let last = '';
        let still = 0;
        const frame = () => {
          const now = el.toDataURL();
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 10) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    WAIT_MS,
    { timeout: WAIT_MS },
  );
}

async function dev<T>(server: Server, pathAndQuery: string): Promise<T> {
  const res = await fetch(`${server.url}/api/dev${pathAndQuery}`);
  const env = (await res.json()) as Envelope<T>;
  if (env.code !== 200) throw new Error(`dev endpoint: ${env.msg}`);
  return env.data as T;
}

/** The answer of the captcha currently shown in the page's <img>. */
export async function captchaAnswer(server: Server, uniqid: string): Promise<string> {
  return (await dev<{ text: string }>(server, `/captcha?uniqid=${encodeURIComponent(uniqid)}`)).text;
}

/** Runs `send` (a click on a code button) and returns the code it sent to `to`, waiting for it to arrive. */
export async function codeSentBy(server: Server, to: string, send: () => Promise<void>): Promise<string> {
  const before = (await dev<OutboxEntry[]>(server, `/outbox?to=${encodeURIComponent(to)}`)).length;
  await send();
  return until(async () => {
    const rows = await dev<OutboxEntry[]>(server, `/outbox?to=${encodeURIComponent(to)}`);
    return rows.length > before ? rows[0]!.code : undefined;
  }, `a new code sent to ${to}`);
}

/** The newest code sent to a phone ('+86 138…') or email, waiting for it to arrive. */
export async function lastCode(server: Server, to: string): Promise<string> {
  return until(async () => (await dev<OutboxEntry[]>(server, `/outbox?to=${encodeURIComponent(to)}`))[0]?.code, `a code sent to ${to}`);
}

/** Asks `probe` again until it answers (not undefined), for at most WAIT_MS. */
async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Follows the captchas a page loads; `answer()` gives the answer of the one on screen now (the newest),
 * after the page has settled, so a reload or a second fetch never leaves the test with a stale one.
 */
export function trackCaptcha(page: Page, server: Server) {
  let latest: string | null = null;
  page.on('response', (r) => {
    if (!r.url().includes('/api/v1/verify/code')) return;
    void r
      .json()
      .then((env: { data?: { uniqid?: string } }) => {
        if (env.data?.uniqid) latest = env.data.uniqid;
      })
      .catch(() => undefined);
  });
  return {
    async answer(): Promise<string> {
      await page.getByAltText('图形验证码').waitFor();
      await page.waitForLoadState('networkidle');
      if (!latest) throw new Error('no captcha loaded');
      return captchaAnswer(server, latest);
    },
    /** Runs `action` and waits until a captcha newer than the one before it has loaded. */
    async renewedBy(action: () => Promise<void>): Promise<void> {
      const before = latest;
      await action();
      await until(async () => (latest === before ? undefined : latest), 'a new captcha');
    },
  };
}

/** The console's users and the server share a time zone and language. */
export const CONTEXT = { locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1366, height: 860 } };

export async function expectPath(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: WAIT_MS });
  if (new URL(page.url()).pathname !== path) throw new Error(`expected ${path}, at ${page.url()}`);
}

/** A public POST straight to the API; throws unless it answers 200. */
export async function post(server: Server, path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const env = (await res.json()) as Envelope;
  if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
  return env;
}

/** A POST with a signed-in page's token (what the console would send); throws unless it answers 200. */
export async function postAs<T = unknown>(server: Server, page: Page, path: string, body: unknown): Promise<Envelope<T>> {
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const env = (await res.json()) as Envelope<T>;
  if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
  return env;
}

/** Registers a main account through the API with a phone code from the outbox. */
export async function registerByApi(server: Server, account: { username: string; password: string; phone: string; nickname?: string }) {
  const verify = `+86 ${account.phone}`;
  await post(server, '/verify/register', { send_type: 'phone', send_value: verify });
  const code = await lastCode(server, verify);
  await post(server, '/account/register', {
    nickname: account.nickname ?? '测试用户',
    username: account.username,
    password: account.password,
    newPassword: account.password,
    code,
    type: 'phone',
    verify,
  });
}

/** Signs in at /login (main account, or sub-account mode) and waits for the dashboard. */
export async function signIn(page: Page, server: Server, captcha: ReturnType<typeof trackCaptcha>, username: string, password: string, ram = false) {
  await page.goto(`${server.url}/login?redirect=/dashboard`);
  // The sub-account form loads a captcha of its own: answer that one, not the main form's.
  if (ram) await captcha.renewedBy(() => page.getByText('子账号登录').last().click());
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('验证码').fill(await captcha.answer());
  await page.getByLabel('验证码').press('Enter');
  await expectPath(page, '/dashboard');
}

/** What the operator side grants a tenant (plan quotas and feature flags), set before it signs in. */
export type Grant = Partial<Pick<Updateable<AccountTable>, 'network_center_count' | 'dns_quantity' | 'auth_quagga' | 'auth_quagga_advanced' | 'auth_default_route' | 'software_auth_source'>>;

/**
 * A new main account, registered through the API, given `grant`, and signed in at /login in a page of
 * its own (with reduced motion: on a loaded machine a click on an option still sliding in can be lost):
 * where most specs start. Answers the page, its captcha tracker and the tenant's id.
 */
export async function signedInTenant(
  server: Server,
  browser: Browser,
  account: { username: string; password: string; phone: string; nickname: string },
  opts: { context?: BrowserContextOptions; grant?: Grant } = {},
): Promise<{ page: Page; captcha: ReturnType<typeof trackCaptcha>; tenantId: number }> {
  const page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', ...opts.context })).newPage();
  const captcha = trackCaptcha(page, server);
  await registerByApi(server, account);
  const { id } = await server.ctx.db.selectFrom('account').select('id').where('username_key', '=', account.username.toLowerCase()).executeTakeFirstOrThrow();
  if (opts.grant) await server.ctx.db.updateTable('account').set(opts.grant).where('id', '=', id).execute();
  await signIn(page, server, captcha, account.username, account.password);
  return { page, captcha, tenantId: id };
}

/** Adds hardware members (router_type 1) through /router/add, all with one device secret and note. */
export async function addRouters(server: Server, page: Page, names: string[], opts: { secret?: string; note?: string } = {}) {
  for (const name of names) await postAs(server, page, '/router/add', { router_type: 1, username: name, password: opts.secret ?? 'devsecret1', note: opts.note ?? '' });
}

/** The screens every page is looked at: a large and a common desktop, and a phone. */
export const SCREENS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
] as const;
export const SCREEN_WIDTHS = SCREENS.map((s) => s.width);

/**
 * Pictures of the page as it is now at each width (named `<name>-<width>`), the viewport put back after.
 * The toasts of the steps before are hidden while they are taken rather than waited out (3 s each), so
 * the pictures are of the page.
 */
export async function screenshotAtWidths(page: Page, name: string, ready: Locator | string, height = 900) {
  const toasts = (visibility: string) =>
    page.evaluate((v) => document.querySelectorAll<HTMLElement>('.ant-message').forEach((el) => (el.style.visibility = v)), visibility);
  await toasts('hidden');
  try {
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height });
      await settled(page);
      await screenshot(page, `${name}-${width}`, ready);
    }
  } finally {
    await toasts('');
    await page.setViewportSize(CONTEXT.viewport);
  }
}

/** Waits until no dialog is still zooming in (a screenshot would catch it half-drawn). */
export const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('[class*="zoom-appear"], [class*="zoom-enter"]'));

/**
 * Opens the top bar's user menu (named by `user`) and waits until `item` shows in it. The menu opens on
 * hover; when the page is still loading, a layout shift can move the button from under the pointer and
 * close the menu again, so the pointer leaves and hovers once more until the item stays visible.
 */
export async function openUserMenu(page: Page, user: RegExp, item: string | RegExp) {
  const button = page.getByRole('button', { name: user });
  const entry = page.getByRole('menuitem', { name: item });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await button.hover({ timeout: Math.max(deadline - Date.now(), 1) });
    try {
      await entry.waitFor({ state: 'visible', timeout: Math.min(3000, Math.max(deadline - Date.now(), 1)) });
      return entry;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
      await page.mouse.move(0, 0);
    }
  }
}

/** The rows of the first sheet of a downloaded workbook, as text. */
export async function sheetRows(file: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}
