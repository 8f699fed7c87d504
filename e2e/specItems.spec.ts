import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M, TICKET_TYPE_ACCESS_POP } from '@hublink/contract';
import { addRouters, launch, postAs, screenshotAtWidths, settled, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers, OK } from './dialogs';

/**
 * The last spec items of issue 31 in Chromium against the real server, each with pictures at 1440,
 * 1280 and 390 px: the network detail's note dialog and center segment form, the POP config page's
 * rename, the monitoring alert kinds that keep one ticked, the connection log's p2p/POP variant and a
 * ticket that offers no rating before an adviser answered.
 */
describe('issue 31 spec items in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let networkNumber = '';
  const stamp = String(Date.now() % 1_000_000);
  const [center, point] = [`gwsic${stamp}`, `gwsip${stamp}`];

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    let tenantId: number;
    ({ page, tenantId } = await signedInTenant(server, browser, { username: `si${stamp}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '规格检查' }));
    await addRouters(server, page, [center, point]);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '规格网络', center: [center], point: [point] });
    networkNumber = created.data!.network_number;
    // A completed access-POP order gives the network a POP resource (as e2e/pop.spec.ts does).
    await server.ctx.db.transaction().execute((trx) =>
      server.ctx.events.emit(trx, {
        type: 'network_ticket.completed',
        tenant_id: tenantId,
        ticket_id: Number(stamp) + 7,
        network_number: networkNumber,
        network_ticket_type: TICKET_TYPE_ACCESS_POP,
        attributes: { bandwidth: 100, pop: ['south', 'north'], expired_time: 1, pop_conf: { south: [center] } },
      }),
    );
    await server.ctx.events.settle();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog } = dialogHelpers(() => page);
  const row = (name: string) => page.locator(`tr[data-row-key="${name}"]`);

  it('edits a member’s note from the network detail; the summary says 拨号模式', async () => {
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    await row(center).waitFor();
    await page.getByText(M.networkMode, { exact: true }).first().waitFor();
    await page.getByRole('button', { name: fmt(M.networkNoteEdit, { name: center }) }).click();
    await dialog().waitFor();
    await settled(page);
    await dialog().getByRole('textbox', { name: M.memberNoteLabel }).fill('上海总部机房');
    await screenshotAtWidths(page, 'spec-network-note', dialog().getByRole('textbox', { name: M.memberNoteLabel }));
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => row(center).textContent()).toContain('上海总部机房');
  });

  it('sets a center’s segment with the hardware clients’ segment only', async () => {
    await row(center).getByRole('button', { name: M.segUiCenterSegment }).click();
    await dialog().waitFor();
    await settled(page);
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.segGatewayRequired).waitFor();
    await dialog().getByLabel(`${M.segUiRouterSegment} ${M.segUiGateway}`).fill('10.66.0.0');
    await dialog().getByLabel(`${M.segUiRouterSegment} ${M.segUiMask}`).click();
    await page.locator('.ant-select-item-option[title="/16"]:visible').click();
    await screenshotAtWidths(page, 'spec-center-segment', dialog().getByText(M.segUiSoftwareSegmentOptional));
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().waitFor({ state: 'hidden' });
    await page.getByText(M.networkSetDone).first().waitFor();
  });

  it('renames the network on the POP config page, up to 32 characters', async () => {
    await page.goto(`${server.url}/network/pop_edit?network_number=${networkNumber}`);
    const name = page.getByLabel(M.popEditNetworkName);
    await expect.poll(() => name.inputValue()).toBe('规格网络');
    const long = '华东区域智能组网POP接入点配置示例网络名称长度三十二个字符示例';
    await name.fill(long);
    await screenshotAtWidths(page, 'spec-pop-edit', name);
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await page.getByText(M.saved).first().waitFor();
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    await page.getByRole('heading', { name: long }).waitFor();
  });

  it('keeps one monitoring alert kind ticked', async () => {
    await postAs(server, page, '/monitor/enable', {});
    await page.goto(`${server.url}/monitor/setting`);
    const kinds = page.getByRole('group', { name: M.monitorKinds });
    await kinds.waitFor();
    for (const kind of [M.monitorRouterOnline, M.monitorServiceExpired, M.monitorPopConnect]) {
      const box = kinds.getByRole('checkbox', { name: kind });
      if (await box.isChecked()) await box.click();
    }
    const last = kinds.getByRole('checkbox', { name: M.monitorRouterOffline });
    await expect.poll(() => last.isChecked()).toBe(true);
    await last.click();
    await page.getByText(M.monitorKindsRequired).first().waitFor();
    expect(await last.isChecked()).toBe(true);
    await screenshotAtWidths(page, 'spec-monitor-kinds', kinds);
  });

  it('shows the connection log with its p2p and POP tabs', async () => {
    await page.goto(`${server.url}/logs/connect`);
    await page.getByRole('tab', { name: M.logConnectAll }).waitFor();
    await page.getByRole('tab', { name: M.logModeP2p }).click();
    await page.getByRole('tabpanel').getByRole('columnheader', { name: M.logPeer }).waitFor();
    await screenshotAtWidths(page, 'spec-logs-connect-p2p', page.getByRole('tabpanel').getByRole('columnheader', { name: M.logRemoteIp }));
  });

  it('offers no rating on a ticket no adviser has answered', async () => {
    const raised = await postAs<{ ticket_number: string }>(server, page, '/ticket/create', { title: '网络无法连接', content: '分支机构的路由器从昨天开始无法连接到总部网络。', type: 2 });
    await page.goto(`${server.url}/ticket/detail?ticket_number=${raised.data!.ticket_number}`);
    await page.getByText(M.supportAppraiseAfterReply).waitFor();
    expect(await page.getByRole('button', { name: '提交评价' }).count()).toBe(0);
    await screenshotAtWidths(page, 'spec-ticket-detail', page.getByText(M.supportAppraiseAfterReply));
  });

  it('shows every error of the twin-center dialog at once, and names its setting 线路模式', async () => {
    const other = `si2${stamp}`;
    const grant = { network_center_count: 2 };
    const twin = await signedInTenant(server, browser, { username: other, password: 'secret123', phone: `135${String(Date.now()).slice(-8)}`, nickname: '双中心' }, { grant });
    const [ca, cb] = [`gwsia${stamp}`, `gwsib${stamp}`];
    await addRouters(server, twin.page, [ca, cb]);
    const net = await postAs<{ network_number: string }>(server, twin.page, '/network/create', { network_name: '双中心规格', center: [ca, cb], point: [] });
    page = twin.page;
    await page.goto(`${server.url}/network/detail?network_number=${net.data!.network_number}`);
    await row(ca).waitFor();
    await dialogHelpers(() => page).openConfig(M.networkMenuCenterLink, true);
    await dialog().getByRole('radiogroup', { name: '线路模式' }).waitFor();
    await dialog().getByLabel(M.segUiPublicIp).fill('198.51.100.7');
    await dialog().getByRole('button', { name: new RegExp(M.segUiCenterLinkEnable.split('').join('\\s?')) }).click();
    await dialog().getByText(M.segServerRequired).last().waitFor();
    await dialog().getByText(M.segPublicPortRequired).waitFor();
    await dialog().getByText(M.segLocalPortRequired).waitFor();
    await screenshotAtWidths(page, 'spec-twin-center-errors', dialog().getByText(M.segLocalPortRequired));
  });
});
