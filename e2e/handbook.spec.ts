import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { publishRelease } from '../packages/server/src/modules/download';
import { CONTEXT, launch, screenshot, screenshotAtWidths, settled, startServer, WAIT_MS, type Server } from './support';

const WINDOWS = Buffer.from('MZ HubLink Windows client 2.1.0');
const LINUX_GUI = Buffer.from('HubLink graphical client 1.4.1 for amd64');

describe('help documents and client downloads, signed out, in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  /** The query of the page's address. */
  const query = () => Object.fromEntries(new URL(page.url()).searchParams);
  const heading = (title: string) => page.getByRole('heading', { name: title, exact: true });
  const tree = () => page.getByRole('navigation', { name: M.handbookContents });
  /** Whether the page is wider than the window (a phone would scroll it sideways). */
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  beforeAll(async () => {
    // A fresh install: the server imports the repository's handbook on start.
    server = await startServer();
    await publishRelease(server.ctx, { platform: 'windows', version: '2.1.0', notes: '修复断线重连\n提升大文件传输速度', file: { name: 'HubLink-Setup-2.1.0.exe', body: WINDOWS } });
    await publishRelease(server.ctx, { platform: 'android', version: '2.0.5', notes: '适配 Android 15', file: { name: 'hublink-2.0.5.apk', body: Buffer.from('apk') } });
    await publishRelease(server.ctx, { platform: 'ios', version: '2.0.0', url: 'https://apps.apple.com/cn/app/hublink/id000000000' });
    await publishRelease(server.ctx, { platform: 'linux', panel: 'cli', arch: 'amd64', version: '1.4.0', file: { name: 'hublink-cli-1.4.0-amd64.tar.gz', body: Buffer.from('cli amd64') } });
    await publishRelease(server.ctx, { platform: 'linux', panel: 'cli', arch: 'arm64', version: '1.4.0', file: { name: 'hublink-cli-1.4.0-arm64.tar.gz', body: Buffer.from('cli arm64') } });
    await publishRelease(server.ctx, { platform: 'linux', panel: 'gui', arch: 'amd64', version: '1.4.1', notes: '新增托盘图标', file: { name: 'hublink-gui-1.4.1-amd64.deb', body: LINUX_GUI } });
    browser = await launch();
    // Never signed in: the context has no session. Chromium on Linux says so in its user agent.
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', acceptDownloads: true })).newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the first document of the handbook, its id and title in the address', async () => {
    await page.goto(`${server.url}/handbook`);
    await heading('产品简介').waitFor({ timeout: WAIT_MS });
    await page.waitForURL((u) => u.searchParams.get('title') === '产品简介', { timeout: WAIT_MS });
    expect(query().id).toMatch(/^\d+$/);
    expect(page.url()).not.toContain('/login');
    await page.getByRole('button', { name: fmt(M.handbookNext, { title: '注册账号' }) }).waitFor();
    await screenshotAtWidths(page, 'handbook', heading('产品简介'));
  });

  it('walks the tree and next/previous, the address following each document', async () => {
    await tree().getByText('成员管理', { exact: true }).click();
    await tree().getByText('批量导入、批量删除与导出').click();
    await heading('批量导入、批量删除与导出').waitFor({ timeout: WAIT_MS });
    expect(query().title).toBe('批量导入、批量删除与导出');
    expect(await page.locator('.ant-breadcrumb').textContent()).toBe(`${M.routeHandbook}/成员管理/批量导入、批量删除与导出`);

    await page.getByRole('button', { name: fmt(M.handbookNext, { title: '成员后缀与客户端账号' }) }).click();
    await heading('成员后缀与客户端账号').waitFor({ timeout: WAIT_MS });
    expect(query().title).toBe('成员后缀与客户端账号');
    await page.getByRole('button', { name: fmt(M.handbookPrevious, { title: '批量导入、批量删除与导出' }) }).click();
    await heading('批量导入、批量删除与导出').waitFor({ timeout: WAIT_MS });
    const bulkId = query().id;

    // Back in the browser returns to the document before.
    await page.goBack();
    await heading('成员后缀与客户端账号').waitFor({ timeout: WAIT_MS });

    // A link with the id and title opens that document; a link inside a document stays in this tab.
    await page.goto(`${server.url}/handbook?id=${bulkId}&title=${encodeURIComponent('批量导入、批量删除与导出')}`);
    await heading('批量导入、批量删除与导出').waitFor({ timeout: WAIT_MS });
    // Only the section of the document shown is open.
    await tree().getByText('快速入门', { exact: true }).click();
    await tree().getByText('注册账号').click();
    await heading('注册账号').waitFor({ timeout: WAIT_MS });
    await page.locator('.hl-handbook-content').getByRole('link', { name: '登录', exact: true }).click();
    await heading('登录与找回密码').waitFor({ timeout: WAIT_MS });
    expect(query().title).toBe('登录与找回密码');
    expect(browser.contexts()[0]!.pages()).toHaveLength(1);
  });

  it('opens an image of a document in a preview', async () => {
    await tree().getByText('认识控制台').click();
    await heading('认识控制台').waitFor({ timeout: WAIT_MS });
    const image = page.locator('.hl-handbook-content img').first();
    await image.click();
    const preview = page.locator('.ant-image-preview-img');
    await preview.waitFor({ timeout: WAIT_MS });
    await settled(page);
    await screenshot(page, 'handbook-image-preview', preview);
    // The preview shows the image the server serves (a PNG of the handbook).
    const src = await preview.getAttribute('src');
    expect(src).toMatch(/^\/api\/v1\/document\/image\?name=[0-9a-f]{32}\.png$/);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached', timeout: WAIT_MS });
  });

  it('keeps the tree in a drawer at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await tree().waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.getByRole('button', { name: M.handbookContents }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('产品简介').waitFor({ timeout: WAIT_MS });
    await settled(page);
    await screenshot(page, 'handbook-drawer-390', drawer.getByText('产品简介'));
    await drawer.getByText('产品简介').click();
    await heading('产品简介').waitFor({ timeout: WAIT_MS });
    await drawer.waitFor({ state: 'hidden', timeout: WAIT_MS });
    expect(await sideways()).toBe(false);
    await page.setViewportSize(CONTEXT.viewport);
  });

  it('shows a card per platform, this Linux browser’s first', async () => {
    await page.goto(`${server.url}/download`);
    const cards = page.locator('.ant-card[aria-label]');
    await cards.first().waitFor({ timeout: WAIT_MS });
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['Linux', 'Windows', 'macOS', 'Android', 'iOS']);
    await cards.first().getByText(M.downloadThisDevice).waitFor();
    const windows = page.getByLabel('Windows', { exact: true });
    await windows.getByText('版本 2.1.0').waitFor();
    await page.getByLabel('Linux', { exact: true }).getByText(`${M.panelGui} 1.4.1`).waitFor();
    await page.getByLabel('macOS', { exact: true }).getByRole('button', { name: M.downloadNoRelease }).waitFor();
    await screenshotAtWidths(page, 'download', windows);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sideways()).toBe(false);
    await page.setViewportSize(CONTEXT.viewport);
  });

  it('downloads the Windows package, and sends iOS to its store', async () => {
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByLabel('Windows', { exact: true }).getByRole('link', { name: new RegExp(M.downloadButton) }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('HubLink-Setup-2.1.0.exe');
    expect(fs.readFileSync((await file.path())!)).toEqual(WINDOWS);

    const store = page.getByLabel('iOS', { exact: true }).getByRole('link', { name: new RegExp(M.downloadExternal) });
    expect(await store.getAttribute('target')).toBe('_blank');
    const res = await fetch(`${server.url}${await store.getAttribute('href')}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://apps.apple.com/cn/app/hublink/id000000000');
  });

  it('chooses the Linux version and platform in the dialog and downloads that package', async () => {
    await page.getByLabel('Linux', { exact: true }).getByRole('button', { name: new RegExp(M.downloadChoose) }).click();
    const dialog = page.getByRole('dialog', { name: M.downloadLinuxTitle });
    await dialog.getByText(M.panelCli, { exact: true }).waitFor({ timeout: WAIT_MS });
    await dialog.getByText(M.panelGui, { exact: true }).click();
    await dialog.getByText('版本 1.4.1').waitFor();
    expect(await dialog.getByRole('radio', { name: M.archArm64 }).isDisabled()).toBe(true);
    await settled(page);
    await screenshot(page, 'download-linux-dialog', dialog.getByText('版本 1.4.1'));
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await dialog.getByRole('link', { name: new RegExp(M.downloadButton) }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('hublink-gui-1.4.1-amd64.deb');
    expect(fs.readFileSync((await file.path())!)).toEqual(LINUX_GUI);
    await dialog.waitFor({ state: 'hidden', timeout: WAIT_MS });
    expect(errors).toEqual([]);
  });
});
