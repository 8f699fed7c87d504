import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSIS_TITLE, diagnosisMessage, fmt, M, type Envelope, type NetworkDetail, type NetworkLink } from '@hublink/contract';
import { startAgent, type AgentProcess } from '../packages/server/test/agentProcess';
import { lanHost, type LanHost } from '../packages/server/test/lan';
import { waitForPing } from '../packages/server/test/measure';
import { NetLab } from '../packages/server/test/netns';
import { requireLab, Wan, type Uplink } from '../packages/server/test/wan';
import { labelOf, topologyGraph } from '../packages/web/src/features/network/topology';
import { layoutTopology } from '../packages/web/src/features/network/topologyLayout';
import { addRouters, canvasStill, CONTEXT, launch, postAs, screenshotAtWidths, settled, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/*
 * Issue 29 in Chromium: a point with a main and a backup center, each device a real `hublink agent` in
 * a namespace of the data-plane lab (packages/server/test: NetLab, Wan, LAN PCs), talking to the server
 * the test started through the lab's internet. The main center's uplink is cut; within 10 s of the cut
 * plus one status poll the network detail shows the point's link to the main center down and to the
 * backup up, in the link list and in the topology graph, and the point's 诊断 names the failover.
 * The center comes back and the page shows both links up again.
 */

const SECRET = 'devsecret1';
const NETWORK_NAME = '主备组网';
/** Tunnels and agents come up in seconds; the bound is for a loaded 2-core machine. */
const UP_MS = 90_000;
/** Issue 29: the point moves to its backup within 10 s; the page polls /network/status every 10 s (LIMITS.statusPollMs), and the agent's report and the poll's answer take a moment. */
const PAGE_FAILOVER_MS = 25_000;
/** What the data-plane suite allows a failback (the main center's tunnel back, its routes moved back), plus a poll. */
const PAGE_FAILBACK_MS = 60_000 + 10_000;

const LANS = {
  main: { member: '10.1.0.1/24', host: '10.1.0.10/24', prefix: '10.1.0.0' },
  backup: { member: '10.2.0.1/24', host: '10.2.0.10/24', prefix: '10.2.0.0' },
  shop: { member: '10.10.1.1/24', host: '10.10.1.10/24', prefix: '10.10.1.0' },
};
type Device = keyof typeof LANS;
const DEVICES = Object.keys(LANS) as Device[];

/** What the graph draws along a line: pixels of the up colour (green) and of the down colour (red). */
interface Tones {
  green: number;
  red: number;
}

describe('a point failing over to its backup center, in the network detail (issue 29)', () => {
  const lab = new NetLab('hlfo');
  let server: Server | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let wan: Wan;
  let networkNumber = '';
  const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
  const names: Record<Device, string> = { main: `fomain${stamp}`, backup: `fobackup${stamp}`, shop: `foshop${stamp}` };
  const up = {} as Record<Device, Uplink>;
  const hosts = {} as Record<Device, LanHost>;
  const agents: AgentProcess[] = [];
  const figures: Record<string, number> = {};

  /** Every agent's output and openvpn logs, for a failure's message. */
  const agentLogs = () => agents.map((a) => a.diagnosis(30, 20)).join('\n');

  /** A GET with the signed-in page's token, as the console makes it. */
  async function getAs<T>(path: string): Promise<T> {
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    const res = await fetch(`${server!.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    const env = (await res.json()) as Envelope<T>;
    if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
    return env.data as T;
  }

  const linksCard = () => page.getByRole('region', { name: M.networkLinks });
  /** The link list's row of the shop's link to a center. */
  const linkRow = (center: Device) => linksCard().getByRole('row').filter({ hasText: names.shop }).filter({ hasText: names[center] });
  const linkState = (center: Device, online: boolean) => linkRow(center).getByText(online ? M.networkOnline : M.networkOffline, { exact: true });

  /** Waits (bounded) until the link list shows the shop's links in these states, both at once; answers when it did. */
  async function linksShown(mainUp: boolean, backupUp: boolean, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await linkState('main', mainUp).isVisible()) && (await linkState('backup', backupUp).isVisible())) return Date.now();
      if (Date.now() > deadline) {
        const text = await linksCard().innerText().catch(() => '(no links card)');
        throw new Error(`the link list did not show the main link ${mainUp ? 'up' : 'down'} and the backup ${backupUp ? 'up' : 'down'} within ${timeoutMs} ms; shown:\n${text}\n${agentLogs()}`);
      }
      await page.waitForTimeout(100);
    }
  }

  /**
   * Reads the topology graph's canvas along the shop's line to `center`: the middle of it, clear of the
   * symbols and labels at its ends. The layout is ours (topologyLayout.ts), so the test knows where the
   * page drew each node for the chart's width, from the members and links the page polled.
   */
  async function lineTones(center: Device): Promise<Tones> {
    const chart = page.getByRole('img', { name: M.networkLinkTopology });
    const canvas = chart.locator('canvas').first();
    await canvasStill(canvas);
    const width = Math.round((await chart.boundingBox())!.width);
    const detail = await getAs<NetworkDetail>(`/network/info?network_number=${networkNumber}`);
    const status = await getAs<{ link: NetworkLink[]; online: Record<string, number> }>(`/network/status?network_number=${networkNumber}`);
    const members = detail.member.map((m) => ({ ...m, online: status.online[m.router_name] ?? m.online }));
    const graph = topologyGraph(members, status.link);
    const layout = layoutTopology(
      graph.nodes.map((n) => ({ kind: n.kind, label: labelOf(n) })),
      width,
    );
    const at = (name: string) => layout.nodes[graph.nodes.findIndex((n) => n.name === name)]!;
    const [from, to] = [at(names.shop), at(names[center])];
    return canvas.evaluate(
      (el: HTMLCanvasElement, { a, b }: { a: { x: number; y: number }; b: { x: number; y: number } }) => {
        const ctx = el.getContext('2d')!;
        const scale = el.width / el.getBoundingClientRect().width;
        const tones = { green: 0, red: 0 };
        const length = Math.hypot(b.x - a.x, b.y - a.y);
        const [nx, ny] = [-(b.y - a.y) / length, (b.x - a.x) / length];
        for (let i = 0; i <= 60; i++) {
          const t = 0.3 + (0.4 * i) / 60;
          for (let off = -3; off <= 3; off++) {
            const x = Math.round((a.x + (b.x - a.x) * t + nx * off) * scale);
            const y = Math.round((a.y + (b.y - a.y) * t + ny * off) * scale);
            const [r, g, bl] = ctx.getImageData(x, y, 1, 1).data;
            // Green (#52c41a) and red (#ff4d4f) as drawn: at 0.9 opacity, the thin line's edges blended with white.
            if (g! - r! > 40 && g! - bl! > 40) tones.green++;
            if (r! - g! > 60 && r! - bl! > 60) tones.red++;
          }
        }
        return tones;
      },
      { a: { x: from.x, y: from.y }, b: { x: to.x, y: to.y } },
    );
  }

  // The pointer leaves the switch after a click: at another width it would hover the other option in the pictures.
  async function showTopology() {
    await linksCard().getByText(M.networkLinkTopology, { exact: true }).click();
    await page.mouse.move(0, 0);
    await page.getByRole('img', { name: M.networkLinkTopology }).locator('canvas').first().waitFor({ timeout: WAIT_MS });
  }

  async function showList() {
    await linksCard().getByText(M.networkLinkList, { exact: true }).click();
    await page.mouse.move(0, 0);
    await linkRow('main').waitFor({ timeout: WAIT_MS });
  }

  /** Waits (bounded) until the graph draws the shop's main line and backup line in these states. */
  async function graphShows(mainUp: boolean, backupUp: boolean, timeoutMs = WAIT_MS): Promise<{ main: Tones; backup: Tones }> {
    const wanted = (t: Tones, on: boolean) => (on ? t.green > 0 && t.red === 0 : t.red > 0 && t.green === 0);
    let seen = { main: { green: 0, red: 0 }, backup: { green: 0, red: 0 } };
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      seen = { main: await lineTones('main'), backup: await lineTones('backup') };
      if (wanted(seen.main, mainUp) && wanted(seen.backup, backupUp)) return seen;
      if (Date.now() > deadline) throw new Error(`the topology graph did not draw the main line ${mainUp ? 'up' : 'down'} and the backup ${backupUp ? 'up' : 'down'}: ${JSON.stringify(seen)}`);
      await page.waitForTimeout(500);
    }
  }

  beforeAll(async () => {
    await requireLab();
    await lab.removeLeftovers();
    // The agents reach the server through the lab's forwarder, which names each device's address in
    // X-Forwarded-For: trusted, it is the address a center reports, which its points dial.
    server = await startServer({ HUBLINK_TRUST_PROXY: '127.0.0.1' });
    browser = await launch();
    ({ page } = await signedInTenant(
      server,
      browser,
      { username: `failover${stamp}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '主备测试' },
      { grant: { auth_quagga: 1 } },
    ));
    await addRouters(server, page, DEVICES.map((d) => names[d]), { secret: SECRET });
    networkNumber = (await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: NETWORK_NAME, center: [names.main, names.backup], point: [names.shop] })).data!.network_number;
    await postAs(server, page, '/network/edit_routing', { network_number: networkNumber, type: 2, main_router: names.main, secondary_router: names.backup });
    await postAs(server, page, '/network/edit_prefix', {
      network_number: networkNumber,
      prefix: DEVICES.map((d) => ({ ip: LANS[d].prefix, mask: 24, name: names[d], permission: 'permit' })),
    });

    wan = await Wan.create(lab);
    await wan.gateway(Number(new URL(server.url).port), { forwardedFor: true });
    for (const d of DEVICES) {
      up[d] = await wan.device(d);
      hosts[d] = await lanHost(lab, up[d].ns, { name: `h${d}`, memberAddress: LANS[d].member, hostAddress: LANS[d].host });
    }
    for (const d of DEVICES) {
      agents.push(startAgent(lab, up[d].ns, { name: names[d], secret: SECRET, args: ['--dns', 'file', '--resolv-conf', lab.resolvConf(up[d].ns)] }));
    }
  }, 180_000);

  afterAll(async () => {
    // Each step whatever the one before did: no agent, namespace, browser or server left behind.
    await Promise.allSettled(agents.map((a) => a.stop()));
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await lab.close();
    console.log(`network failover in the console (ms): ${JSON.stringify(figures)}`);
  }, 60_000);

  it('shows the point on both centers, then on its backup within 10 s of the cut plus one poll, in the list and the graph; 诊断 names it', async () => {
    const started = Date.now();
    try {
      await waitForPing(lab, hosts.shop.ns, hosts.main.address, UP_MS);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${agentLogs()}`);
    }
    figures.tunnelsUp = Date.now() - started;

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server!.url}/network/detail?network_number=${networkNumber}`);
    await linksShown(true, true, UP_MS);
    // The graph sees both lines up too: what it reads afterwards can tell up from down.
    await showTopology();
    await graphShows(true, true);
    await showList();

    const cut = Date.now();
    await wan.cut('main');
    figures.pageFailover = (await linksShown(false, true, PAGE_FAILOVER_MS * 2)) - cut;
    console.log(`from the cut to the link list showing the backup: ${figures.pageFailover} ms`);
    expect(figures.pageFailover, `the page showed the failover ${figures.pageFailover} ms after the cut`).toBeLessThan(PAGE_FAILOVER_MS);
    // The point reaches the backup center's LAN (through its tunnel there) while its main center is gone.
    expect(await lab.pings(hosts.shop.ns, hosts.backup.address, 2)).toBe(true);

    await screenshotAtWidths(page, 'network-failover-links', linkState('backup', true));
    // On a phone the state of each link shows without scrolling the table sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    const table = (await linksCard().locator('.ant-table-container').boundingBox())!;
    for (const [center, online] of [
      ['main', false],
      ['backup', true],
    ] as const) {
      const state = (await linkState(center, online).boundingBox())!;
      expect(state.x + state.width, `the state of the link to the ${center} center at 390 px`).toBeLessThanOrEqual(table.x + table.width);
    }
    await page.setViewportSize(CONTEXT.viewport);
    await showTopology();
    const tones = await graphShows(false, true);
    figures.graphFailover = Date.now() - cut;
    expect(tones.main.red, JSON.stringify(tones)).toBeGreaterThan(0);
    await screenshotAtWidths(page, 'network-failover-topology', page.getByRole('img', { name: M.networkLinkTopology }).locator('canvas'));
    // Still failed over when the pictures were taken: the graph (redrawn by the polls meanwhile) says so.
    await graphShows(false, true, 1);

    // The point's 诊断 from the member list: failed over, from the main center to the backup.
    await page.goto(`${server!.url}/router/lists`);
    const row = page.getByRole('row').filter({ hasText: names.shop });
    await row.getByRole('button', { name: `${M.diagnosisAction} ${names.shop}` }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: M.diagnosisTitle });
    await dialog.getByText(fmt(M.diagnosisCauseLine, { cause: DIAGNOSIS_TITLE.failed_over })).waitFor({ timeout: WAIT_MS });
    // Which center's tunnel is down, and which carries the point now.
    await dialog.getByText(diagnosisMessage('failed_over', { network: NETWORK_NAME, center: names.main, backup: names.backup }), { exact: true }).waitFor({ timeout: WAIT_MS });
    await settled(page);
    await screenshotAtWidths(page, 'network-failover-diagnosis', dialog.getByText(M.diagnosisLastSeen));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }, UP_MS + 180_000);

  it('shows both links up again once the main center is back (failback)', async () => {
    await page.goto(`${server!.url}/network/detail?network_number=${networkNumber}`);
    await linksShown(false, true, WAIT_MS);
    const back = Date.now();
    await wan.restore('main');
    figures.pageFailback = (await linksShown(true, true, PAGE_FAILBACK_MS)) - back;
    console.log(`from the restore to the link list showing both links up: ${figures.pageFailback} ms`);
    await showTopology();
    await graphShows(true, true);
    expect(await lab.pings(hosts.shop.ns, hosts.main.address, 2)).toBe(true);
  }, PAGE_FAILBACK_MS + 60_000);
});
