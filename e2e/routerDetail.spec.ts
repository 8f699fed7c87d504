import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { DEVICE_CHANNELS, type TrafficRelay, type WatchRequest } from '../packages/server/src/domain/deviceChannels';
import { addRouters, CONTEXT, expectPath, launch, postAs, screenshot, signedInTenant, startServer, WAIT_MS, type Server } from './support';

const WIDTHS = [1440, 1280, 390];

/**
 * The hardware router detail in Chromium against the real server (issue 13): the member list's link,
 * the info and interfaces the gateway wrote, and live charts fed through the server's pub/sub as the
 * gateway instance holding the device's session would feed them. The gateway's own e2e adds a real agent.
 */
describe('hardware router detail in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);
  const username = `rtd${stamp}`;
  const password = 'secret123';
  const [router, peer] = [`gwdetail${stamp}`, `gwpeer${stamp}`];
  let memberId = 0;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username, password, phone: `136${String(Date.now()).slice(-8)}`, nickname: '详情测试' }));
    await addRouters(server, page, [router, peer]);
    await postAs(server, page, '/router/note', { router_name: router, note: '北京机房' });
    await postAs(server, page, '/network/create', { network_name: '总部网络', center: [router], point: [peer] });
    // What the gateway writes when the device says hello (its own tests cover that path).
    const row = await server.ctx.db.selectFrom('member').select('id').where('router_key', '=', router).executeTakeFirstOrThrow();
    memberId = row.id;
    await server.ctx.db
      .updateTable('member')
      .set({
        online_status: 1,
        online_time: Date.now() - 3_600_000,
        version: '2.1.0',
        router_model: 'HL-R300',
        router_ipv4: '203.0.113.7',
        router_mac: '00:11:22:33:44:55',
        traffic_in: 5_000_000_000,
        traffic_out: 1_234_567,
        interfaces: JSON.stringify([
          { interface_uuid: 'if-wan', interface: 'wan', protocol: 'pppoe', ipv4: '203.0.113.7', ipv4_subnet_mask: '255.255.255.255', mtu: 1492 },
          { interface_uuid: 'if-lan', interface: 'lan', protocol: 'static', ipv4: '192.168.10.1', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 },
        ]),
      })
      .where('id', '=', memberId)
      .execute();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Resolves when a console asks for the member's traffic (the stream is open). */
  async function watched(): Promise<{ got: Promise<void>; stop: () => Promise<void> }> {
    let resolve!: () => void;
    const got = new Promise<void>((r) => (resolve = r));
    const stop = await server.ctx.pubsub.subscribe(DEVICE_CHANNELS.watch, (m) => {
      if ((m as WatchRequest).member_id === memberId) resolve();
    });
    return { got, stop };
  }

  /** The device's last 45 points of both interfaces, as the gateway relays them. */
  async function feedTraffic() {
    const now = Math.floor(Date.now() / 1000);
    const data = Array.from({ length: 45 }, (_, i) => [
      { interface: 'wan', time: now - 44 + i, down: 40 + 30 * Math.sin(i / 4), upload: 12 + 8 * Math.cos(i / 5) },
      { interface: 'lan', time: now - 44 + i, down: 8 + (i % 6), upload: 3 + (i % 4) },
    ]).flat();
    // The last wan point sets the text rates: 80 Mbit/s in → 10.00 MB/s, 20 Mbit/s out → 2.50 MB/s.
    data.push({ interface: 'wan', time: now + 1, down: 80, upload: 20 });
    await server.ctx.pubsub.publish(DEVICE_CHANNELS.traffic(memberId), { member_id: memberId, data } satisfies TrafficRelay);
  }

  it('opens from the member list and shows info, interfaces, networks and live charts', async () => {
    await page.goto(`${server.url}/router/lists`);
    const watch = await watched();
    await page.getByRole('link', { name: router }).click();
    await expectPath(page, '/router/detail');
    await page.getByText('HL-R300').waitFor({ timeout: WAIT_MS });
    for (const text of ['北京机房', M.routerConnected, '00:11:22:33:44:55', '4.66 GB', '1.18 MB', '255.255.255.255', 'PPPoE']) {
      await page.getByText(text, { exact: true }).first().waitFor({ timeout: WAIT_MS });
    }
    expect(await page.getByRole('link', { name: '总部网络' }).getAttribute('href')).toMatch(/^\/network\/detail\?network_name=.+&network_number=/);

    await watch.got;
    await watch.stop();
    await feedTraffic();
    const inbound = page.locator('.ant-card', { has: page.getByRole('img', { name: `wan ${M.routerTrafficIn}` }) });
    const outbound = page.locator('.ant-card', { has: page.getByRole('img', { name: `wan ${M.routerTrafficOut}` }) });
    await inbound.getByText(fmt(M.routerTrafficRate, { rate: '10.00' })).waitFor({ timeout: WAIT_MS });
    await outbound.getByText(fmt(M.routerTrafficRate, { rate: '2.50' })).waitFor({ timeout: WAIT_MS });

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `router-detail-${width}`, page.getByText(fmt(M.routerTrafficRate, { rate: '10.00' })));
    }
    await page.setViewportSize(CONTEXT.viewport);
  }, 120_000);

  it('edits the note in its dialog', async () => {
    await page.getByRole('button', { name: M.routerEditNote }).click();
    const input = page.getByRole('dialog').getByLabel(M.memberNoteLabel);
    await input.fill('上海机房');
    await page.getByRole('dialog').getByRole('button', { name: /确\s?定|保\s?存/ }).click();
    await page.getByText('上海机房', { exact: true }).first().waitFor({ timeout: WAIT_MS });
  }, 60_000);

  /** The member's history as the gateway's writers leave it: minutes of traffic and flows, and two sessions. */
  async function writeHistory() {
    const db = server.ctx.db;
    const { tenant_id } = await db.selectFrom('member').select('tenant_id').where('id', '=', memberId).executeTakeFirstOrThrow();
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await db.insertInto('traffic_minute').values(
      Array.from({ length: 90 }, (_, i) => ({ tenant_id, member_id: memberId, minute: minute - (90 - i) * 60_000, down_sum: 40 + 20 * Math.sin(i / 8), upload_sum: 10 + 5 * Math.cos(i / 6), samples: 1 })),
    ).execute();
    await db.insertInto('flow_minute').values([
      { tenant_id, member_id: memberId, kind: 'app', name: 'wechat', minute: minute - 10 * 60_000, download: 50_000_000, upload: 4_000_000 },
      { tenant_id, member_id: memberId, kind: 'app', name: 'dingtalk', minute: minute - 12 * 60_000, download: 20_000_000, upload: 9_000_000 },
    ]).execute();
    const base = { tenant_id, router_name: router, mode: 'pop', online_time: 0 };
    await db.insertInto('online_log').values([
      { ...base, orig: '198.51.100.20:51820', vpn_ip: '172.16.0.2', start_time: Date.now() - 3 * 3_600_000, end_time: Date.now() - 2 * 3_600_000, online_time: 3600 },
      { ...base, orig: '198.51.100.21:51820', vpn_ip: '172.16.0.3', start_time: Date.now() - 3_600_000, end_time: null },
    ]).execute();
  }

  it('switches by keyboard to the second view: traffic chart, connections, then analysis', async () => {
    await writeHistory();
    await page.goto(`${server.url}/router/detail?router_name=${router}`);
    await page.getByText('HL-R300').waitFor({ timeout: WAIT_MS });
    await page.getByRole('radio', { name: M.routerViewDetail }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/view=traffic/, { timeout: WAIT_MS });
    await page.getByText('198.51.100.21:51820').waitFor({ timeout: WAIT_MS });
    await page.getByRole('img', { name: M.saasTabTraffic }).waitFor({ timeout: WAIT_MS });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `router-detail-traffic-${width}`, page.getByText('198.51.100.21:51820'));
    }
    await page.setViewportSize(CONTEXT.viewport);
    await page.getByRole('tab', { name: M.routerTabAnalysis }).click();
    await page.getByText('wechat').first().waitFor({ timeout: WAIT_MS });
    await screenshot(page, 'router-detail-analysis-1440', page.getByText('dingtalk').first());
  }, 120_000);

  it('shows the device status view with its networks in the carousel, names cut after 6 characters', async () => {
    await postAs(server, page, '/network/create', { network_name: '华东区域总部网络', center: [peer], point: [router] });
    await page.goto(`${server.url}/router/detail?router_name=${router}&view=status`);
    await page.getByText(M.routerStatusTitle).waitFor({ timeout: WAIT_MS });
    await page.getByRole('link', { name: '总部网络', exact: true }).first().waitFor({ state: 'attached', timeout: WAIT_MS });
    await page.getByText('华东区域总部…').first().waitFor({ state: 'attached', timeout: WAIT_MS });
    // Each slide counts the router's own links from its view of the status (a center of one, a point of the other).
    await expect.poll(() => page.getByText(`${M.routerStatusLinkDown} 0/1`).count(), { timeout: WAIT_MS }).toBeGreaterThanOrEqual(2);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `router-status-${width}`, page.getByText(M.routerStatusTitle));
    }
    await page.setViewportSize(CONTEXT.viewport);
  }, 120_000);

  it('sends the user to the member list for a member that does not exist', async () => {
    await page.goto(`${server.url}/router/detail?router_name=nosuch${stamp}`);
    await expectPath(page, '/router/lists');
  }, 60_000);
});
