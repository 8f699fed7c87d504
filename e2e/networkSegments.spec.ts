import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshot, settled, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers, OK } from './dialogs';

const ENABLE = new RegExp(M.segUiCenterLinkEnable.split('').join('\\s?'));
const WIDTHS = [1440, 1280] as const;
const PHONE = { width: 390, height: 844 };

/**
 * The segment and link settings of the network detail (issue 12) in Chromium against the real server:
 * route prefixes (auto-correction and a refused duplicate), a center's fixed ports and segments,
 * center interconnect (a segment the server refuses for overlapping), the twin-center link and point
 * links; the pages at 1440 and 1280 px and every dialog at a phone's width.
 */
describe('network segments in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let detailUrl = '';
  let networkNumber = '';
  const username = `nseg${Date.now() % 1_000_000}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const grant = { network_center_count: 2, auth_quagga: 1, auth_quagga_advanced: 1 };
    ({ page } = await signedInTenant(server, browser, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '网段测试' }, { grant }));
    await addRouters(server, page, ['seg_ca01', 'seg_cb01', 'seg_pt01']);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '网段网络', center: ['seg_ca01', 'seg_cb01'], point: ['seg_pt01'] });
    networkNumber = created.data!.network_number;
    detailUrl = `${server.url}/network/detail?network_number=${networkNumber}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, choose, submit, confirm, ...helpers } = dialogHelpers(() => page);
  const openConfig = (label: string) => helpers.openConfig(label, true);
  const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });
  const networkRow = () => server.ctx.db.selectFrom('network').selectAll().where('network_number', '=', networkNumber).executeTakeFirstOrThrow();

  async function openRowAction(label: string, member: string) {
    await page.getByRole('button', { name: `${label} ${member}`, exact: true }).click();
    await dialog().waitFor();
    await settled(page);
  }

  it('shows a center’s fixed-port and segment actions on its row, at 1440 and 1280 px', async () => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(detailUrl);
      await row('seg_ca01').getByRole('button', { name: `${M.segUiFixedPort} seg_ca01` }).waitFor();
      expect(await row('seg_pt01').getByRole('button', { name: `${M.segUiFixedPort} seg_pt01` }).count()).toBe(0);
      await screenshot(page, `network-segments-detail-${width}`, row('seg_ca01'));
    }
  });

  it('corrects a prefix to its mask, refuses a duplicate, then saves the list', async () => {
    await openConfig(M.networkMenuPrefix);
    const field = (n: number, f: string) => dialog().getByLabel(`${M.segUiPrefixRow} ${n} ${f}`, { exact: true });
    await dialog().getByRole('button', { name: M.segUiPrefixAdd }).click();
    await field(1, M.segUiPrefixIp).fill('10.1.9.9');
    await choose(field(1, M.segUiPrefixMask), '/16');
    await page.getByText('网络号10.1.9.9与掩码不匹配，已更正为10.1.0.0').first().waitFor();
    await expect.poll(() => field(1, M.segUiPrefixIp).inputValue()).toBe('10.1.0.0');
    await choose(field(1, M.segUiPrefixName), 'seg_pt01');
    await dialog().getByRole('button', { name: M.segUiPrefixAdd }).click();
    await choose(field(2, M.segUiPrefixMask), '/16');
    await field(2, M.segUiPrefixIp).fill('10.1.0.0');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.segPrefixRepeat).first().waitFor();
    await screenshot(page, 'network-segments-prefix-refused', dialog().getByText(M.segPrefixRepeat).first());
    await field(2, M.segUiPrefixIp).fill('192.168.0.0');
    await choose(field(2, M.segUiPrefixGe), '20');
    await submit(M.saved);
    const stored = await server.ctx.db.selectFrom('network_prefix').select(['ip', 'mask', 'name', 'ge']).orderBy('position').execute();
    expect(stored).toEqual([
      { ip: '10.1.0.0', mask: 16, name: 'seg_pt01', ge: null },
      { ip: '192.168.0.0', mask: 16, name: '', ge: 20 },
    ]);
  });

  it('refuses a port out of range, then sets a center’s fixed ports', async () => {
    await openRowAction(M.segUiFixedPort, 'seg_ca01');
    const field = (service: string, f: string) => dialog().getByLabel(`${service} ${f}`, { exact: true });
    await field(M.segUiRouterService, M.segUiPublicPort).fill('80');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.segPortRange).first().waitFor();
    await dialog().getByText('本地端口不能为空！').first().waitFor();
    await screenshot(page, 'network-segments-fixed-port-refused', dialog().getByText(M.segPortRange).first());
    await field(M.segUiRouterService, M.segUiPublicPort).fill('30000');
    await field(M.segUiRouterService, M.segUiLocalPort).fill('30001');
    await submit(M.networkSetDone);
    const m = await server.ctx.db.selectFrom('network_member').select('fixed_port').where('member_type', '=', 'center').orderBy('id').executeTakeFirstOrThrow();
    expect(JSON.parse(m.fixed_port)).toEqual({ router: { public_ip: '', public_port: 30000, static_port: 30001 }, software: null });
  });

  it('refuses a segment that is not a network address, then sets a center’s segments', async () => {
    await openRowAction(M.segUiCenterSegment, 'seg_ca01');
    const field = (part: string, f: string) => dialog().getByLabel(`${part} ${f}`, { exact: true });
    await field(M.segUiRouterSegment, M.segUiGateway).fill('10.8.0.1');
    await choose(field(M.segUiRouterSegment, M.segUiMask), '/16');
    await dialog().getByText(M.segGatewayFormat).first().waitFor();
    await screenshot(page, 'network-segments-center-refused', dialog().getByText(M.segGatewayFormat).first());
    await field(M.segUiRouterSegment, M.segUiGateway).fill('10.8.0.0');
    await field(M.segUiSoftwareSegmentOptional, M.segUiGateway).fill('10.9.0.0');
    await choose(field(M.segUiSoftwareSegmentOptional, M.segUiMask), '/24');
    await submit(M.networkSetDone);
  });

  it('turns center interconnect on after a confirmation; the server refuses an overlapping segment', async () => {
    await openConfig(M.networkMenuInterconnect);
    await dialog().getByRole('button', { name: M.segUiInterconnectEnable }).click();
    await confirm(M.segUiInterconnectEnableConfirm);
    await dialog().getByText(M.segUiInterconnectOn).waitFor();
    expect((await networkRow()).interconnect).toBe(1);
    const gateway = dialog().getByLabel(`${M.segUiInterconnectSegment} ${M.segUiGateway}`, { exact: true });
    await gateway.fill('10.8.5.0');
    await choose(dialog().getByLabel(`${M.segUiInterconnectSegment} ${M.segUiMask}`, { exact: true }), '/24');
    await dialog().getByRole('button', { name: new RegExp(M.segUiSaveSegment) }).click();
    await page.getByText(M.segOverlap).first().waitFor();
    await gateway.fill('10.255.0.0');
    await screenshot(page, 'network-segments-interconnect', dialog().getByText(M.segUiInterconnectOn));
    await submit(M.networkSetDone, new RegExp(M.segUiSaveSegment));
    expect(JSON.parse((await networkRow()).interconnect_network)).toEqual({ gateway: '10.255.0.0', mask: 24 });
  });

  it('needs a server for the twin-center link, enables it, and closes it again', async () => {
    await openConfig(M.networkMenuCenterLink);
    await dialog().getByRole('button', { name: ENABLE }).click();
    await dialog().getByText(M.segServerRequired).first().waitFor();
    await choose(dialog().getByLabel(M.segUiCenterLinkServer), 'seg_cb01');
    await dialog().getByRole('button', { name: ENABLE }).click();
    await dialog().getByText(M.segLinkGatewayRequired).first().waitFor();
    await dialog().getByLabel(M.segUiGateway, { exact: true }).fill('10.254.0.0');
    await choose(dialog().getByLabel(M.segUiMask, { exact: true }), '/24');
    await screenshot(page, 'network-segments-center-link', dialog().getByLabel(M.segUiCenterLinkServer));
    await submit(M.networkSetDone, ENABLE);
    expect((await networkRow()).center_link).toBe(1);

    await openConfig(M.networkMenuCenterLink);
    await dialog().getByText(M.segUiCenterLinkOn).waitFor();
    await dialog().getByRole('button', { name: M.segUiCenterLinkClose }).click();
    await confirm(M.segUiCenterLinkCloseConfirm);
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(async () => (await networkRow()).center_link).toBe(0);
  });

  it('links a point to one center', async () => {
    await openConfig(M.segUiPointLinkTitle);
    const select = dialog().getByLabel(`seg_pt01 ${M.segUiPointLinkCenters}`);
    const item = (name: string) => dialog().locator('.ant-select-selection-item', { hasText: name });
    await item('seg_ca01').locator('.ant-select-selection-item-remove').click();
    await item('seg_cb01').locator('.ant-select-selection-item-remove').click();
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.segPointLinkCentersRequired).first().waitFor();
    // A multiple select stays open after a pick: a click on the hint closes it.
    await select.click();
    await page.locator('.ant-select-item-option[title="seg_cb01"]:visible').click();
    await dialog().getByText(M.segUiPointLinkHint).click();
    await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    await screenshot(page, 'network-segments-point-link', item('seg_cb01'));
    await submit(M.saved);
    const point = await server.ctx.db.selectFrom('network_member').select('link_centers').where('member_type', '=', 'point').executeTakeFirstOrThrow();
    expect(JSON.parse(point.link_centers!)).toHaveLength(1);
  });

  it('every segment dialog fits a phone’s width', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(detailUrl);
    await row('seg_ca01').waitFor();
    const fits = async (name: string) => {
      const box = await dialog().boundingBox();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(PHONE.width);
      expect(scrollWidth, name).toBeLessThanOrEqual(clientWidth);
      await screenshot(page, `network-segments-390-${name}`, dialog());
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'hidden' });
    };
    for (const [label, name] of [
      [M.networkMenuPrefix, 'prefix'],
      [M.networkMenuInterconnect, 'interconnect'],
      [M.networkMenuCenterLink, 'center-link'],
      [M.segUiPointLinkTitle, 'point-link'],
    ] as const) {
      await openConfig(label);
      await fits(name);
    }
    await openRowAction(M.segUiFixedPort, 'seg_ca01');
    await fits('fixed-port');
    await openRowAction(M.segUiCenterSegment, 'seg_ca01');
    await fits('center-segment');
  });
});
