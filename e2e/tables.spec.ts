import fs from 'node:fs';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { M } from '@hublink/contract';
import { publish } from '../packages/server/src/modules/announcement/service';
import { send } from '../packages/server/src/modules/message/service';
import { grant } from '../packages/server/src/modules/service/service';
import { assignSaasDevice } from '../packages/server/src/modules/saas';
import { dialogHelpers } from './dialogs';
import { addRouters, launch, openInConsole, postAs, screenshot, screenshotAtWidths, settle, signedInTenant, startServer, WAIT_MS, type Server } from './support';


/** The lists this test seeds: each must show at least one row, or the check below proves nothing. */
const SEEDED = [
  '/network/lists',
  '/network/detail',
  '/saas/router',
  '/router/lists?type=1',
  '/router/lists?type=2',
  '/logs/software_login',
  '/logs/online',
  '/logs/connect',
  '/ticket/lists',
  '/ram/index',
  '/ram/role',
  '/account/api_token',
  '/account/message',
  '/account/service',
  '/account/announcements',
  '/audit',
];

/** The console's pages of the main layout, where every list is (the route table read as text, as pages.spec.ts does). */
function routePaths(): string[] {
  const table = fs.readFileSync(new URL('../packages/web/src/app/routes.tsx', import.meta.url), 'utf8');
  return [...table.matchAll(/\bpath: '([^']+)',\s*title: [^,]+,\s*layout: '(\w+)'/g)].filter((m) => m[2] === 'main').map((m) => m[1]!);
}

/**
 * What is wrong with the tables of the page as drawn now: a table that scrolls sideways (a column out of
 * sight at the start), a cell under a fixed (sticky) column, a tag or button that sticks out of its cell.
 * Answers one line per fault, and the number of data rows and of fixed cells seen.
 */
function tableFaults(page: Page): Promise<{ faults: string[]; rows: number; fixed: number }> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const text = (el: Element) => (el.textContent ?? '').trim().slice(0, 24);
    let rows = 0;
    let fixedCells = 0;
    for (const wrapper of Array.from(document.querySelectorAll<HTMLElement>('.ant-table-wrapper'))) {
      if (wrapper.closest('.ant-modal, .ant-drawer, [hidden]') || wrapper.offsetParent === null) continue;
      const head = Array.from(wrapper.querySelectorAll('thead th')).map(text).join('|');
      for (const box of Array.from(wrapper.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))) {
        if (box.scrollWidth > box.clientWidth + 1) faults.push(`[${head}] scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
      }
      for (const row of Array.from(wrapper.querySelectorAll<HTMLElement>('tbody tr.ant-table-row'))) {
        rows += 1;
        const cells = Array.from(row.children) as HTMLElement[];
        const fixed = cells.filter((c) => c.matches('.ant-table-cell-fix-start, .ant-table-cell-fix-end'));
        fixedCells += fixed.length;
        for (const cell of cells) {
          const r = cell.getBoundingClientRect();
          for (const f of fixed) {
            if (f === cell) continue;
            const q = f.getBoundingClientRect();
            const overlap = Math.min(r.right, q.right) - Math.max(r.left, q.left);
            if (overlap > 1) faults.push(`[${head}] "${text(cell)}" lies under the fixed "${text(f)}" (${Math.round(overlap)} px)`);
          }
          for (const part of Array.from(cell.querySelectorAll<HTMLElement>('.ant-tag, .ant-btn, .ant-switch, a, .ant-badge'))) {
            const p = part.getBoundingClientRect();
            if (p.width > 0 && (p.right > r.right + 1 || p.left < r.left - 1)) faults.push(`[${head}] "${text(part)}" sticks out of its cell`);
          }
        }
      }
    }
    return { faults, rows, fixed: fixedCells };
  });
}

/** Two animation frames: the table has laid itself out again after a change of the window's size. */
const relayout = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('tables at 1440, 1280 and 390 pixels', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let sim: Simulation | undefined;
  const stamp = String(Date.now() % 1_000_000);
  const urls = new Map<string, string>();
  const hardware = [`tblhq${stamp}`, `tbldc${stamp}`, `tblshop${stamp}`];
  const { dialog, openConfig } = dialogHelpers(() => page);

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    let tenantId: number;
    ({ page, tenantId } = await signedInTenant(
      server,
      browser,
      { username: `tbl${stamp}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '表格测试' },
      { grant: { network_center_count: 2, auth_default_route: 1, auth_quagga: 1, software_auth_source: 1 } },
    ));
    await addRouters(server, page, hardware, { note: '华东机房的出口网关设备' });
    await postAs(server, page, '/router/add', { router_type: 2, username: 'tblalice01', password: 'devsecret1', note: '财务部的笔记本电脑' });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', {
      network_name: '华东办公网络',
      center: hardware.slice(0, 2),
      point: [hardware[2], 'tblalice01'],
    });
    const number = created.data!.network_number;
    urls.set('/network/detail', `/network/detail?network_number=${number}`);
    urls.set('/network/edit', `/network/edit?network_number=${number}`);
    urls.set('/router/detail', `/router/detail?router_name=${hardware[0]}`);
    await assignSaasDevice(server.ctx.db, { tenantId, routerName: hardware[0]!, category: '总部', share: 1, max_bandwidth: 100, bandwidth: 50, expire_date: null });
    const now = Date.now();
    await server.ctx.db
      .insertInto('connect_log')
      .values({ tenant_id: tenantId, member_id: 1, router_name: hardware[0]!, remote_ip: '203.0.113.1', remote_port: 40000, version: '3.1.0', online: 1, session_id: `tbl-${stamp}`, create_time: now - 60_000 })
      .execute();
    await server.ctx.db
      .insertInto('online_log')
      .values({ tenant_id: tenantId, orig: '198.51.100.9', vpn_ip: '10.8.0.2', router_name: hardware[0]!, mode: 'p2p', network_number: number, link_router_name: hardware[2]!, pop_name: '', area: '', start_time: now - 3_600_000, end_time: now - 60_000, online_time: 3540 })
      .execute();
    await server.ctx.db
      .insertInto('software_login')
      .values({ tenant_id: tenantId, router_name: 'tblalice01', ip: '192.168.1.5', os: 'macos', version: '2.0.1', sys_brand: 'Apple', sys_model: 'MacBook Pro', sys_version: '14.2', create_time: now - 60_000 })
      .execute();
    await send(server.ctx, tenantId, { title: '网络到期提醒', content: '<p>您的网络将于7天后到期。</p>' });
    await grant(server.ctx, tenantId, { service_name: '成员扩容包', quantity: 20, start_time: now - 86_400_000, expired_time: now + 86_400_000 * 30 });
    const announcement = await publish(server.ctx, { title: '新增华东POP节点', tag: '产品动态', content: '<p>华东POP节点已上线。</p>' });
    urls.set('/account/announcements/detail', `/account/announcements/detail?id=${announcement}`);
    await postAs(server, page, '/ticket/create', { title: '网络无法连接', content: '总部网关无法连接到分部，请协助排查。', type: 1, file_ids: [] });
    const role = await postAs<{ id: number }>(server, page, '/ram_role/create', {
      name: '网络运维',
      note: '负责网络日常运维',
      auth: { 'easylink.router': { create: 1, edit: 1, delete: 0 }, 'easylink.network': { create: 1, edit: 1, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } },
    });
    await postAs(server, page, '/ram/create', { role_id: role.data!.id, nickname: '运维小王', username: 'tblops01', password: 'opspass12' });
    await postAs(server, page, '/api_token/create', { name: '监控系统只读令牌', scope: 'read', expires_days: 30 });
    // The hardware members online with a config applied: the member table at its widest (every action shown).
    sim = simulate({
      url: server.url,
      members: hardware.map((router_name) => ({ kind: 'router' as const, router_name, secret: 'devsecret1' })),
      startSpreadMs: 100,
      linkDelayMs: [10, 50],
    });
    const deadline = Date.now() + WAIT_MS;
    const online = async () => (await server.ctx.db.selectFrom('member').select('online_time').where('tenant_id', '=', tenantId).where('router_type', '=', 1).execute()).every((m) => m.online_time !== null);
    while (!(await online())) {
      if (Date.now() > deadline) throw new Error('the simulated members did not come online');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.close();
  });

  const found = new Map<string, string[]>();
  const rowsOf = new Map<string, number>();

  it('at 1440 and 1280 no list hides a column under another or clips one', async () => {
    const paths = [...new Set([...routePaths(), '/router/lists?type=1', '/router/lists?type=2'])];
    let fixedSeen = 0;
    for (const [i, path] of paths.entries()) {
      const url = urls.get(path) ?? path;
      await page.setViewportSize({ width: 1440, height: 900 });
      // The console loaded once, then each page opened as its links do.
      if (i === 0) await page.goto(`${server.url}${url}`);
      else await openInConsole(page, url);
      await settle(page);
      for (const width of [1440, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await relayout(page);
        const { faults, rows, fixed } = await tableFaults(page);
        fixedSeen += fixed;
        rowsOf.set(path, Math.max(rowsOf.get(path) ?? 0, rows));
        if (faults.length > 0) found.set(`${url} at ${width}`, faults);
      }
    }
    // The overlap check has met fixed columns (the member table's actions, the lists' operations).
    expect(fixedSeen).toBeGreaterThan(0);
    const empty = SEEDED.filter((p) => !(rowsOf.get(p) ?? 0));
    expect(empty, 'seeded lists that showed no row').toEqual([]);
    expect(Object.fromEntries(found)).toEqual({});
  }, 180_000);

  it('pictures of the network detail at each width', async () => {
    await page.goto(`${server.url}${urls.get('/network/detail')}`);
    await settle(page);
    const widths = await page.locator('.hl-wide-table').first().locator('thead th').evaluateAll((ths) => ths.map((t) => `${t.textContent}:${Math.round(t.getBoundingClientRect().width)}`));
    console.warn(widths.join(' '));
    await screenshotAtWidths(page, 'tables-network-detail', page.getByRole('region', { name: M.networkMembers }));
  });

  it('at 390 the network editor keeps each member name on one line and 移除 beside the position, not over it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}${urls.get('/network/edit')}`);
    await settle(page);
    const selected = page.getByRole('region', { name: M.networkSelected });
    for (const name of [hardware[0]!, 'tblalice01']) {
      const row = selected.getByRole('row').filter({ hasText: name });
      const lines = await row.getByText(name, { exact: true }).evaluate((el) => el.getClientRects().length);
      expect(lines, `${name} on one line`).toBe(1);
      const select = (await row.getByLabel(`${M.networkPosition} ${name}`).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').boundingBox())!;
      const remove = (await row.getByRole('button', { name: `${M.networkRemove} ${name}` }).boundingBox())!;
      expect(remove.x, `移除 of ${name} starts after its select`).toBeGreaterThanOrEqual(select.x + select.width);
      expect(remove.x + remove.width).toBeLessThanOrEqual(390);
    }
    await screenshotAtWidths(page, 'tables-network-edit', selected);
  });

  it('the prefix dialog labels its fields (网络号 …) at each width', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}${urls.get('/network/detail')}`);
    await settle(page);
    await openConfig(M.networkMenuPrefix);
    await dialog().getByText(M.segUiPrefixAdd).click();
    await dialog().getByRole('textbox', { name: `${M.segUiPrefixRow} 1 ${M.segUiPrefixIp}` }).fill('192.168.50.0');
    for (const width of [1440, 1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await dialog().locator('label', { hasText: M.segUiPrefixIp }).first().waitFor();
      await screenshot(page, `tables-prefix-dialog-${width}`, dialog());
    }
  });

  it('router detail: the live charts wait for the first sample, with no 0.00 MB/s', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // The simulated device sends its first sample soon: the stream is held open with nothing on it, so the
    // state before it stays to be looked at.
    let stream: WebSocketRoute | undefined;
    await page.routeWebSocket(/traffic/, (ws) => {
      stream = ws;
    });
    await page.goto(`${server.url}${urls.get('/router/detail')}`);
    const waiting = page.getByRole('status').filter({ hasText: M.routerTrafficWaiting }).first();
    await waiting.waitFor();
    expect(await page.getByText(/\d+\.\d{2} MB\/s/).count()).toBe(0);
    await screenshotAtWidths(page, 'tables-router-detail-waiting', waiting);
    // The first sample: eth0's charts show their rates (80 Mbit/s in → 10.00 MB/s) and stop waiting.
    stream!.send(JSON.stringify({ code: 200, type: 'interface', data: [{ interface: 'eth0', time: Math.floor(Date.now() / 1000), down: 80, upload: 20 }] }));
    await page.getByText('10.00 MB/s').waitFor();
    await page.getByText('2.50 MB/s').waitFor();
    expect(await page.getByRole('status').filter({ hasText: M.routerTrafficWaiting }).count()).toBe(2);
  });

  it('at 390 a list shows name, state and actions first, and shades the edge it scrolls towards', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/router/lists?type=1`);
    await settle(page);
    const table = page.locator('.hl-wide-table').first();
    const heads = (await table.locator('thead th').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(heads.slice(0, 3)).toEqual([M.memberColDevice, M.memberColOnline, M.memberColActions]);
    const shade = (edge: 'before' | 'after') =>
      table.locator('.ant-table-container').evaluate((el, e) => getComputedStyle(el, `::${e}`).boxShadow, edge);
    // More columns behind the right edge: that edge is shaded, the left one is not.
    await page.locator('.hl-wide-table .ant-table-fix-end-shadow-show').first().waitFor();
    expect(await shade('after')).toContain('inset');
    await screenshot(page, 'tables-390-router-lists', table);
    // Scrolled to the end, the shade moves to the left edge.
    await table.locator('.ant-table-content').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await page.locator('.hl-wide-table .ant-table-fix-start-shadow-show').first().waitFor();
    expect(await page.locator('.hl-wide-table .ant-table-fix-end-shadow-show').count()).toBe(0);
    expect(await shade('before')).toContain('inset');
    await screenshot(page, 'tables-390-router-lists-scrolled', table);
  });
});
