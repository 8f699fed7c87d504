import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M, ROUTER_TYPE } from '@hublink/contract';
import { randomNetworkNumber } from '../packages/server/src/modules/network/service';
import { layoutTopology, type LayoutInput } from '../packages/web/src/features/network/topologyLayout';
import { CONTEXT, launch, registerByApi, screenshot, screenshotAtWidths, signIn, startServer, trackCaptcha, type Server } from './support';

interface Seeded {
  name: string;
  hardware?: boolean;
  online?: boolean;
  center?: boolean;
  /** A center's routing: 1 main (default), 0 backup. */
  routing?: number;
}

/** The center colour of the graph (TOPOLOGY_COLORS.center), to know the canvas has drawn a center. */
const CENTER_RGB = [0x16, 0x77, 0xff];

describe('the topology graph in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let tenantId: number;
  /** What the browser logged as an error (a CSP violation among them). */
  const errors: string[] = [];
  const tag = String(Date.now() % 100_000).padStart(5, '0');
  const username = `topo${tag}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext(CONTEXT)).newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const captcha = trackCaptcha(page, server);
    await registerByApi(server, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '拓扑测试' });
    tenantId = (await server.ctx.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    await signIn(page, server, captcha, username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * A network of the given members written straight into the database, as the device gateway would leave it:
   * each online point's link to each online center is up (no row means down).
   */
  async function seedNetwork(networkName: string, members: Seeded[]): Promise<string> {
    const db = server.ctx.db;
    const now = Date.now();
    const ids = new Map<string, number>();
    for (let i = 0; i < members.length; i += 200) {
      const rows = await db
        .insertInto('member')
        .values(
          members.slice(i, i + 200).map((m) => ({
            tenant_id: tenantId,
            router_name: m.name,
            router_key: m.name.toLowerCase(),
            router_type: m.hardware === false ? ROUTER_TYPE.software : ROUTER_TYPE.hardware,
            note: m.center ? '总部机房' : '',
            secret_hash: 'x',
            area_number: null,
            phone: null,
            online_status: m.online === false ? 0 : 1,
            online_time: null,
            create_time: now,
            update_time: now,
          })),
        )
        .returning(['id', 'router_name'])
        .execute();
      for (const r of rows) ids.set(r.router_name, r.id);
    }
    const network_number = randomNetworkNumber();
    const net = await db
      .insertInto('network')
      .values({ tenant_id: tenantId, network_number, network_name: networkName, create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < members.length; i += 200) {
      await db
        .insertInto('network_member')
        .values(
          members.slice(i, i + 200).map((m) => ({
            tenant_id: tenantId,
            network_id: net.id,
            member_id: ids.get(m.name)!,
            member_type: m.center ? 'center' : 'point',
            routing: m.routing ?? 1,
            create_time: now,
          })),
        )
        .execute();
    }
    const up = members.flatMap((p) =>
      p.center || p.online === false
        ? []
        : members
            .filter((c) => c.center && c.online !== false)
            .map((c) => ({ network_id: net.id, member_id: ids.get(p.name)!, center_member_id: ids.get(c.name)!, vpn_online: 1, vpn_ip: '', vpn_online_time: now, update_time: now })),
    );
    for (let i = 0; i < up.length; i += 200) await db.insertInto('member_link').values(up.slice(i, i + 200)).execute();
    return network_number;
  }

  /** Opens the network's detail, switches its links to the graph and waits until the canvas shows a center. */
  async function openGraph(networkNumber: string) {
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    await page.getByText(M.networkLinkTopology, { exact: true }).click();
    const chart = page.getByRole('img', { name: M.networkLinkTopology });
    await chart.locator('canvas').waitFor();
    await page.waitForFunction(
      ([r, g, b]) => {
        const canvas = document.querySelector<HTMLCanvasElement>('[role="img"] canvas');
        const ctx = canvas?.getContext('2d');
        if (!canvas || !ctx || canvas.width === 0) return false;
        const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < pixels.length; i += 4) if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b) return true;
        return false;
      },
      CENTER_RGB,
    );
    return chart;
  }

  /** Moves the mouse onto node `index` of the graph, where our layout puts it for the canvas' width. */
  async function hoverNode(inputs: LayoutInput[], index: number) {
    const canvas = page.getByRole('img', { name: M.networkLinkTopology }).locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const node = layoutTopology(inputs, Math.round(box.width)).nodes[index]!;
    await page.mouse.move(box.x + node.x, box.y + node.y, { steps: 2 });
  }

  /** Screenshots at the three widths of the walk-through, each after the graph has been laid out again. */
  async function shoot(name: string) {
    for (const width of [1440, 1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const chart = page.getByRole('img', { name: M.networkLinkTopology });
      // The graph follows its card: its canvas is as wide as the card's body.
      await expect.poll(async () => Math.round((await chart.boundingBox())!.width) === Math.round((await chart.locator('canvas').boundingBox())!.width)).toBe(true);
      await screenshot(page, `${name}-${width}`, chart);
    }
    await page.setViewportSize(CONTEXT.viewport);
    expect(errors).toEqual([]);
  }

  it('draws 1 center and 4 points, the offline point hollow, with one legend', async () => {
    const number = await seedNetwork('华东组网', [
      { name: `hq${tag}`, center: true },
      { name: `branch${tag}a` },
      { name: `branch${tag}b`, online: false },
      { name: `alice${tag}`, hardware: false },
      { name: `bob${tag}`, hardware: false },
    ]);
    const chart = await openGraph(number);
    const legend = page.getByRole('list').filter({ hasText: M.networkLegendMainLine });
    await expect.poll(() => legend.getByRole('listitem').count()).toBe(8);
    await expect.poll(() => page.getByText(M.networkLegendBackupLine, { exact: true }).count()).toBe(1);
    const height = (await chart.boundingBox())!.height;
    expect(height).toBeLessThan(500);
    await hoverNode(
      [{ kind: 'center', label: [`hq${tag}`, M.networkCategoryCenter] }, ...[`branch${tag}a`, `branch${tag}b`, `alice${tag}`, `bob${tag}`].map((n) => ({ kind: 'point' as const, label: [n] }))],
      2,
    );
    // The tooltip names the member and says its state in words.
    const tooltip = page.getByText(`${M.networkCategoryPoint} · ${M.networkOffline}`).filter({ visible: true });
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toContain(`branch${tag}b`);
    await screenshot(page, 'topology-small-tooltip', tooltip);
    await page.mouse.move(0, 0);
    await shoot('topology-small');
  });

  it('draws 2 centers (one offline and backup) and the first page of 200 points inside the card', async () => {
    const points = Array.from({ length: 200 }, (_, i) => ({ name: `pt${tag}${String(i).padStart(3, '0')}`, online: i % 7 !== 3 }));
    const number = await seedNetwork('全国门店', [{ name: `hqa${tag}`, center: true }, { name: `hqb${tag}`, center: true, online: false, routing: 0 }, ...points]);
    const chart = await openGraph(number);
    const card = page.getByRole('region', { name: M.networkLinks });
    const [c, b] = [(await chart.boundingBox())!, (await card.boundingBox())!];
    expect(c.x + c.width).toBeLessThanOrEqual(b.x + b.width);
    await shoot('topology-large');
  });

  it('opens a network of 1,202 members from pages the server cuts, and draws the graph a page at a time (issue 34)', async () => {
    const points = Array.from({ length: 1200 }, (_, i) => ({ name: `big${tag}${String(i).padStart(4, '0')}`, hardware: i % 3 === 0, online: i % 5 !== 2 }));
    const number = await seedNetwork('全国工厂', [{ name: `bca${tag}`, center: true }, { name: `bcb${tag}`, center: true, routing: 0 }, ...points]);
    // A plan with room for them all, so the network is usable (no over-quota banner).
    await server.ctx.db.updateTable('account').set({ network_router_count: 2000 }).where('id', '=', tenantId).execute();
    const sizes = new Map<string, number>();
    const sized = (r: import('playwright-core').Response) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/network/info') || url.pathname.endsWith('/network/status'))
        void r.body().then((b) => sizes.set(`${url.pathname.split('/').at(-1)}?${url.searchParams.get('member_page')}/${url.searchParams.get('link_page')}`, b.length), () => undefined);
    };
    page.on('response', sized);
    const opened = Date.now();
    await page.goto(`${server.url}/network/detail?network_number=${number}`);
    const members = page.getByRole('region', { name: M.networkMembers });
    await members.getByText(`big${tag}0007`).waitFor();
    const loadMs = Date.now() - opened;
    expect(await members.getByText(`big${tag}0008`).count()).toBe(0);
    // The first page of members and of links: a few kilobytes, not the whole network.
    await expect.poll(() => sizes.get('info?1/1') ?? 0).toBeGreaterThan(0);
    expect(sizes.get('info?1/1')).toBeLessThan(20_000);
    await expect.poll(() => sizes.get('status?1/1') ?? 0).toBeGreaterThan(0);
    expect(sizes.get('status?1/1')).toBeLessThan(10_000);
    // Nor did the route's early call (made while the page's code loads) ask for the whole network.
    expect([...sizes.keys()].filter((k) => k.endsWith('null/null'))).toEqual([]);
    console.log(`network detail of 1,202 members: first page of members shown ${loadMs} ms after navigation; info ${sizes.get('info?1/1')} B, status ${sizes.get('status?1/1')} B`);
    await screenshotAtWidths(page, 'network-detail-big', members.getByText(`big${tag}0007`));

    // The member table's last page, and the links' third page, each asked of the server.
    await members.getByTitle('121').click();
    await members.getByText(`big${tag}1199`).waitFor();
    const links = page.getByRole('region', { name: M.networkLinks });
    await links.getByTitle('3').click();
    await expect.poll(() => links.getByText(`big${tag}0010`).count()).toBeGreaterThan(0);
    expect(await links.getByText(`big${tag}0000`).count()).toBe(0);

    // The graph draws 100 members a page (every center on each) and says so; the next page redraws it.
    await openGraph(number);
    const note = (from: number, to: number) => page.getByText(fmt(M.networkTopologyPaged, { from, to, total: 1202 }));
    await note(1, 100).waitFor();
    await shoot('topology-paged');
    await links.getByRole('listitem', { name: '下一页' }).or(links.getByTitle('下一页')).or(links.getByTitle('Next Page')).first().click();
    await note(101, 200).waitFor();
    page.off('response', sized);
  });
});
