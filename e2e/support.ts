import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Envelope, OutboxEntry } from '@hublink/contract';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import type { Ctx } from '../packages/server/src/core/context';

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results/screenshots');

export interface Server {
  url: string;
  /** The server's services, for seeding what the operator side would create (messages, services). */
  ctx: Ctx;
  close(): Promise<void>;
}

/** The real server on a free localhost port, with its own SQLite file and the dev endpoints on. */
export async function startServer(): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-e2e-'));
  const config = { ...loadConfig({ HUBLINK_DATA_DIR: dataDir, HUBLINK_DEV_ENDPOINTS: '1', LOG_LEVEL: 'warn' }), prettyLogs: false };
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    // 'localhost' so the console sees its own host (branding, footer links).
    url: `http://localhost:${port}`,
    ctx: app.ctx,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
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
  for (let i = 0; i < 50; i++) {
    const rows = await dev<OutboxEntry[]>(server, `/outbox?to=${encodeURIComponent(to)}`);
    if (rows.length > before) return rows[0]!.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new code sent to ${to}`);
}

/** The newest code sent to a phone ('+86 138…') or email, waiting briefly for it to arrive. */
export async function lastCode(server: Server, to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const rows = await dev<OutboxEntry[]>(server, `/outbox?to=${encodeURIComponent(to)}`);
    if (rows[0]) return rows[0].code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code sent to ${to}`);
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
    /** Waits until a captcha newer than the current one has loaded. */
    async renewed(): Promise<void> {
      const before = latest;
      for (let i = 0; i < 100 && latest === before; i++) await new Promise((r) => setTimeout(r, 50));
      if (latest === before) throw new Error('captcha was not renewed');
    },
  };
}

/** The console's users and the server share a time zone and language. */
export const CONTEXT = { locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1366, height: 860 } };

export async function expectPath(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
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
  if (ram) await page.getByText('子账号登录').last().click();
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('验证码').fill(await captcha.answer());
  await page.getByLabel('验证码').press('Enter');
  await expectPath(page, '/dashboard');
}

/** Waits until no dialog is still zooming in (a screenshot would catch it half-drawn). */
export const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('[class*="zoom-appear"], [class*="zoom-enter"]'));
