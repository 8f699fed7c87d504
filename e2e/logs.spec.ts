import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_EXPORT_COLUMNS, LOG_EXPORT_FILES, M, type LogExportType } from '@hublink/contract';
import { CONTEXT, launch, postAs, registerByApi, SCREEN_WIDTHS, screenshot, signIn, startServer, trackCaptcha, WAIT_MS, sheetRows, type Server } from './support';

const HOUR = 3_600_000;

/** The name the console saves an export under: the server's file_name, '<log>-yyyyMMdd.xlsx'. */
const fileNamed = (type: LogExportType) => new RegExp(`^${LOG_EXPORT_FILES[type]}-\\d{8}\\.xlsx$`);

describe('the log pages in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);
  const username = `logs${stamp}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', acceptDownloads: true })).newPage();
    const captcha = trackCaptcha(page, server);
    await registerByApi(server, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '日志测试' });
    await signIn(page, server, captcha, username, password);
    const { id: tenant } = await server.ctx.db.selectFrom('account').select('id').where('username_key', '=', username).executeTakeFirstOrThrow();
    // What the device gateway would have written over the last hours: 12 connections, sessions, sign-ins.
    const now = Date.now();
    const names = ['gw_office', 'gw_branch', 'laptop_li'];
    await server.ctx.db
      .insertInto('connect_log')
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          tenant_id: tenant,
          member_id: 1,
          router_name: names[i % 3]!,
          remote_ip: `203.0.113.${i + 1}`,
          remote_port: 40000 + i,
          version: '3.1.0',
          online: i % 2,
          session_id: `e2e-${stamp}-${i}`,
          create_time: now - (i + 1) * HOUR,
        })),
      )
      .execute();
    const session = { tenant_id: tenant, orig: '198.51.100.9', vpn_ip: '10.8.0.2', network_number: '', link_router_name: '', pop_name: '', area: '' };
    await server.ctx.db
      .insertInto('online_log')
      .values([
        { ...session, router_name: 'gw_office', mode: 'p2p', network_number: 'N8A2F1', link_router_name: 'gw_branch', start_time: now - 5 * HOUR, end_time: now - 4 * HOUR, online_time: 3600 },
        { ...session, router_name: 'gw_branch', mode: 'p2p', network_number: 'N8A2F1', link_router_name: 'gw_office', start_time: now - HOUR, end_time: null, online_time: 0 },
        { ...session, router_name: 'laptop_li', mode: 'pop', pop_name: '上海POP', area: '华东', start_time: now - 3 * HOUR, end_time: now - 2 * HOUR, online_time: 3600 },
      ])
      .execute();
    await server.ctx.db
      .insertInto('software_login')
      .values([
        { tenant_id: tenant, router_name: 'laptop_li', ip: '192.168.1.5', os: 'macos', version: '2.0.1', sys_brand: 'Apple', sys_model: 'MacBook Pro', sys_version: '14.2', create_time: now - 2 * HOUR },
        { tenant_id: tenant, router_name: 'phone_wang', ip: '192.168.1.9', os: 'android', version: '2.0.0', sys_brand: 'Xiaomi', sys_model: '14', sys_version: '14', create_time: now - 6 * HOUR },
      ])
      .execute();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const cell = (text: string) => page.getByRole('cell', { name: text, exact: true }).first();

  /** Clicks 导出 and reads the workbook the console decoded from the answer's base64 and saved. */
  async function exportFile(type: LogExportType): Promise<string[][]> {
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('button', { name: new RegExp(M.logExport) }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(fileNamed(type));
    return sheetRows((await file.path())!);
  }

  async function shots(name: string, ready: string) {
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `logs-${name}-${width}`, cell(ready));
    }
    await page.setViewportSize(CONTEXT.viewport);
  }

  it('lists connections 10 a page, searches by member and exports the search as .xlsx', async () => {
    await page.goto(`${server.url}/logs/connect`);
    await cell('203.0.113.1').waitFor();
    await page.getByText(M.logConnectUp).first().waitFor();
    await page.locator('.ant-pagination').getByTitle('2').waitFor();
    await shots('connect', '203.0.113.1');

    await page.getByPlaceholder(M.logSearchMember).fill('gw_branch');
    await page.getByPlaceholder(M.logSearchMember).press('Enter');
    await expect.poll(() => page.locator('tbody tr.ant-table-row').count(), { timeout: WAIT_MS }).toBe(4);
    const rows = await exportFile('connect');
    expect(rows[0]).toEqual([...LOG_EXPORT_COLUMNS.connect]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['gw_branch', 'gw_branch', 'gw_branch', 'gw_branch']);
    expect(rows[1]![1]).toBe('203.0.113.2');
  });

  it('shows p2p and POP sessions in their tabs and exports the POP log', async () => {
    await page.goto(`${server.url}/logs/online`);
    await cell('N8A2F1').waitFor();
    await page.getByText(M.logOngoing).waitFor();
    await shots('online', 'N8A2F1');
    await page.getByRole('tab', { name: M.logModePop }).click();
    await cell('上海POP').waitFor();
    await screenshot(page, 'logs-online-pop', cell('上海POP'));
    const rows = await exportFile('pop_online');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual([...LOG_EXPORT_COLUMNS.pop_online]);
    expect(rows[1]!.slice(0, 3)).toEqual(['laptop_li', '上海POP', '华东']);
  });

  it('lists software sign-ins, exports them, and warns 数据为空，请重新筛选数据！ for an empty search', async () => {
    await page.goto(`${server.url}/logs/software_login`);
    await cell('MacBook Pro').waitFor();
    await shots('software-login', 'MacBook Pro');
    const rows = await exportFile('software_login');
    expect(rows.map((r) => r[0])).toEqual([LOG_EXPORT_COLUMNS.software_login[0], 'laptop_li', 'phone_wang']);

    await page.getByPlaceholder(M.logSearchSoftwareLogin).fill('nobody');
    await page.getByPlaceholder(M.logSearchSoftwareLogin).press('Enter');
    await page.getByText(M.empty).first().waitFor();
    await page.getByRole('button', { name: new RegExp(M.logExport) }).click();
    await page.getByText(M.exportEmpty).waitFor();
  });

  it('lets a sub-account read and export the connect log, and shows it 403 for software logins', async () => {
    const role = await postAs<{ id: number }>(server, page, '/ram_role/create', {
      name: '日志查看',
      note: '',
      auth: { 'easylink.router': { create: 0, edit: 0, delete: 0 }, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } },
    });
    await postAs(server, page, '/ram/create', { role_id: role.data!.id, nickname: '日志员', username: 'logs01', password: 'logspass1' });
    const ramPage = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', acceptDownloads: true })).newPage();
    await signIn(ramPage, server, trackCaptcha(ramPage, server), `logs01@${username}`, 'logspass1', true);
    await ramPage.goto(`${server.url}/logs/connect`);
    await ramPage.getByRole('cell', { name: '203.0.113.1', exact: true }).waitFor();
    const downloaded = ramPage.waitForEvent('download', { timeout: WAIT_MS });
    await ramPage.getByRole('button', { name: new RegExp(M.logExport) }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(fileNamed('connect'));
    expect(await sheetRows((await file.path())!)).toHaveLength(13);
    await ramPage.goto(`${server.url}/logs/software_login`);
    await ramPage.getByText(M.pageForbidden).first().waitFor();
    await ramPage.context().close();
  });
});
