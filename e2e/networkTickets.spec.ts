import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { completeTicket, startTicket } from '../packages/server/src/modules/network-ticket';
import { CONTEXT, expectPath, launch, postAs, registerByApi, screenshot, settled, signIn, startServer, trackCaptcha, type Server } from './support';

const OK = /确\s?定|OK/;
/** antd spaces out a button's two Chinese characters. */
const spaced = (text: string) => new RegExp(`^${text.split('').join('\\s?')}$`);
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

/**
 * Network work orders (issue 12) in Chromium against the real server: the access-POP wizard from the
 * list to a submitted order, a refused second order, the operator moving orders (through the service
 * functions), cancel and delete from the list, and the pages at 1440, 1280 and 390 pixels wide.
 */
describe('network work orders in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let networkNumber = '';
  const username = `ntk${Date.now() % 1_000_000}`;
  const password = 'secret123';
  const listUrl = () => `${server.url}/network/ticket_lists`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' })).newPage();
    const captcha = trackCaptcha(page, server);
    await registerByApi(server, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: '工单测试' });
    await signIn(page, server, captcha, username, password);
    for (const name of ['pop_gw01', 'pop_gw02']) await postAs(server, page, '/router/add', { router_type: 1, username: name, password: 'devsecret1', note: '' });
    await postAs(server, page, '/router/add', { router_type: 2, username: 'popapp01', password: 'devsecret1', note: '' });
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '工单网络', center: ['pop_gw01'], point: ['pop_gw02', 'popapp01'] });
    networkNumber = created.data!.network_number;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const row = (text: string) => page.getByRole('row').filter({ hasText: text });
  const used = (n: number) => page.getByText(`已分配 ${n}/3`);

  /** Moves members into the open region's list: check them in the pool, then the move-in button. */
  async function moveIn(names: string[]) {
    const panel = page.getByRole('tabpanel');
    for (const n of names) await panel.getByText(n, { exact: true }).click();
    await panel.getByRole('button').first().click();
  }

  /** Confirms the open popconfirm. */
  async function confirm(question: string) {
    await page.getByText(question).waitFor();
    await settled(page);
    await page.locator('.ant-popover').filter({ hasText: question }).getByRole('button', { name: OK }).click();
  }

  it('orders access to POP through the wizard and finds the order in the list', async () => {
    await page.goto(listUrl());
    await page.getByText(M.empty).waitFor();
    await page.getByRole('button', { name: new RegExp(M.ticketApply) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox').click();
    await page.locator(`.ant-select-item-option[title="工单网络 (${networkNumber})"]:visible`).click();
    await dialog.getByRole('button', { name: OK }).click();
    await expectPath(page, '/network/ticket_create');

    // Step 1: the last region cannot be unchecked.
    const south = page.getByRole('checkbox', { name: '华南' });
    await expect.poll(() => south.isChecked()).toBe(true);
    await south.click();
    await page.getByText(M.ticketPopRequired).first().waitFor();
    expect(await south.isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: '华东' }).check();
    await page.getByRole('radio', { name: '2年' }).check();
    await screenshot(page, 'network-ticket-wizard-config', page.getByRole('slider'));
    await page.getByRole('button', { name: spaced(M.ticketNext) }).click();

    // Step 2: members to the regions, the used count following.
    await used(0).waitFor();
    await moveIn(['pop_gw01', 'pop_gw02']);
    await used(2).waitFor();
    await page.getByRole('tab', { name: '华东' }).click();
    await moveIn(['popapp01']);
    await used(3).waitFor();
    await screenshot(page, 'network-ticket-wizard-members', used(3));
    await page.getByRole('button', { name: spaced(M.ticketNext) }).click();

    // Step 3: the summary, then submit; back to the list after the success message.
    await page.getByText('pop_gw01、pop_gw02').waitFor();
    await screenshot(page, 'network-ticket-wizard-summary', page.getByText('pop_gw01、pop_gw02'));
    await page.getByRole('button', { name: spaced(M.ticketSubmit) }).click();
    await page.getByText(M.ticketSubmitted).first().waitFor();
    await expectPath(page, '/network/ticket_lists');
    await row(networkNumber).getByText(M.ticketStatusPending).waitFor();
    expect(await row(networkNumber).getByText(M.ticketTypeAccessPop).count()).toBe(1);
  });

  it('refuses a second open order for the network and stays on the wizard', async () => {
    await page.goto(`${server.url}/network/ticket_create?network_number=${networkNumber}`);
    await page.getByRole('button', { name: spaced(M.ticketNext) }).click();
    await used(0).waitFor();
    await page.getByRole('button', { name: spaced(M.ticketNext) }).click();
    await page.getByRole('button', { name: spaced(M.ticketSubmit) }).click();
    await page.getByText(M.ticketPendingExists).first().waitFor();
    await screenshot(page, 'network-ticket-wizard-refused', page.getByText(M.ticketPendingExists).first());
    await expectPath(page, '/network/ticket_create');
  });

  it('shows the detail of the order', async () => {
    const ticket = await server.ctx.db.selectFrom('network_ticket').select('network_ticket_number').where('network_number', '=', networkNumber).executeTakeFirstOrThrow();
    await page.goto(listUrl());
    await row(ticket.network_ticket_number).getByRole('link', { name: M.ticketActionDetail }).click();
    await expectPath(page, '/network/ticket_detail');
    await page.getByText('华南：pop_gw01、pop_gw02').waitFor();
    expect(await page.getByText('华东：popapp01').count()).toBe(1);
    expect(await page.getByText('2年').count()).toBe(1);
    await screenshot(page, 'network-ticket-detail', page.getByText('华南：pop_gw01、pop_gw02'));
  });

  it('cancels an order the operator completed, then deletes it', async () => {
    const ticket = await server.ctx.db.selectFrom('network_ticket').select('network_ticket_number').where('network_number', '=', networkNumber).executeTakeFirstOrThrow();
    const n = ticket.network_ticket_number;
    await startTicket(server.ctx, n);
    await completeTicket(server.ctx, n);
    await page.goto(listUrl());
    await row(n).getByText(M.ticketStatusCompleted).waitFor();
    expect(await row(n).getByRole('button', { name: M.ticketActionDelete }).count()).toBe(0);
    await row(n).getByRole('button', { name: M.ticketActionCancel }).click();
    await confirm(M.ticketConfirmCancel);
    await page.getByText(M.cancelled).first().waitFor();
    await row(n).getByText(M.ticketStatusCancelled).waitFor();

    await row(n).getByRole('button', { name: M.ticketActionDelete }).click();
    await confirm(M.confirmDelete);
    await page.getByText(M.deleted).first().waitFor();
    await expect.poll(() => row(n).count()).toBe(0);
    await page.getByText(M.empty).waitFor();
  });

  it('lays out the list, the detail and the wizard at 1440, 1280 and 390 pixels', async () => {
    await postAs(server, page, '/network/ticket', { network_number: networkNumber, network_ticket_type: 1001, ticket: { pop: ['north'], expired_time: 1, bandwidth: 1 }, pop_conf: { north: ['pop_gw01'] } });
    const ticket = await server.ctx.db.selectFrom('network_ticket').select('network_ticket_number').where('network_number', '=', networkNumber).executeTakeFirstOrThrow();
    const pages: [string, string, (p: Page) => Locator][] = [
      ['list', listUrl(), (p) => p.getByText(ticket.network_ticket_number).first()],
      ['detail', `${server.url}/network/ticket_detail?network_number=${networkNumber}&network_ticket_number=${ticket.network_ticket_number}`, (p) => p.getByText('华北：pop_gw01')],
      ['wizard', `${server.url}/network/ticket_create?network_number=${networkNumber}`, (p) => p.getByRole('slider')],
    ];
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const [name, url, ready] of pages) {
        await page.goto(url);
        await screenshot(page, `network-ticket-${name}-${size.width}`, ready(page));
        // Nothing wider than the window: the page itself never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      }
      await page.getByRole('button', { name: spaced(M.ticketNext) }).click();
      await screenshot(page, `network-ticket-wizard-members-${size.width}`, used(0));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    }
  });
});
