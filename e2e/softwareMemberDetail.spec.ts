import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { addRouters, expectPath, launch, postAs, screenshotAtWidths, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/** What a hardware router's detail says and a software client's must not (issue 31). */
const HARDWARE_WORDS = [M.routerInfoTitle, M.routerInfoName, M.routerInfoModel, M.routerInfoMac, M.routerInfoOnline, M.routerConnected, M.routerInfoOnlineTime, M.routerViewDetail, M.routerViewStatus, M.routerTrafficWaiting];

/**
 * A software member's /router/detail in Chromium (issue 31): opened from the software tab, it is worded
 * as the software member list is (账号, 手机号码, 登录状态, 状态, 系统), with none of a router's fields.
 */
describe("a software member's detail page in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);
  const staff = `swd${stamp}`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `swdetail${stamp}`, password: 'secret123', phone: `137${String(Date.now()).slice(-8)}`, nickname: '软件详情' }));
    await addRouters(server, page, [`swdhq${stamp}`]);
    await postAs(server, page, '/router/add', { router_type: 2, username: staff, password: 'Staff-pass1', note: '研发部-张三' });
    await postAs(server, page, '/network/create', { network_name: '总部网络', center: [`swdhq${stamp}`], point: [staff] });
    // What the gateway writes when the client says hello (its own tests cover that path).
    await server.ctx.db
      .updateTable('member')
      .set({ online_status: 1, online_time: Date.now() - 60_000, version: '1.2.0', os: 'windows', traffic_in: 5_000_000_000, traffic_out: 1_234_567 })
      .where('router_key', '=', staff)
      .execute();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The info card's labels and values, in order. */
  const fields = async (title: string) =>
    page
      .locator('.ant-card', { has: page.locator('.ant-card-head-title', { hasText: title }) })
      .locator('.ant-descriptions-item')
      .evaluateAll((items) => items.map((i) => [i.querySelector('.ant-descriptions-item-label')!.textContent, i.querySelector('.ant-descriptions-item-content')!.textContent]));

  async function noHardwareWords() {
    for (const text of HARDWARE_WORDS) expect(await page.getByText(text, { exact: true }).count(), text).toBe(0);
  }

  it('opens from the software tab, worded as a software member', async () => {
    await page.goto(`${server.url}/router/lists?type=2`);
    await page.getByRole('link', { name: staff }).click();
    await expectPath(page, '/router/detail');
    await page.getByText(M.routerInfoSoftwareTitle).waitFor({ timeout: WAIT_MS });
    const shown = await fields(M.routerInfoSoftwareTitle);
    expect(shown.map(([label]) => label)).toEqual([
      M.memberColAccount,
      M.routerInfoNote,
      M.memberColPhone,
      M.memberColOnline,
      M.memberColStatus,
      M.memberColOs,
      M.memberColVersion,
      M.memberLogTime,
      M.routerInfoInput,
      M.routerInfoOut,
      M.memberColCreateTime,
    ]);
    expect(shown.slice(0, 7)).toEqual([
      [M.memberColAccount, staff],
      [M.routerInfoNote, '研发部-张三'],
      [M.memberColPhone, '-'],
      [M.memberColOnline, M.memberOnline],
      [M.memberColStatus, M.memberStatusNormal],
      [M.memberColOs, 'windows'],
      [M.memberColVersion, '1.2.0'],
    ]);
    await page.getByRole('radio', { name: M.routerViewSoftwareDetail }).waitFor({ state: 'attached', timeout: WAIT_MS });
    await page.getByText(M.routerTrafficWaitingSoftware).waitFor({ timeout: WAIT_MS });
    await page.getByRole('link', { name: '总部网络' }).waitFor({ timeout: WAIT_MS });
    await noHardwareWords();
    await screenshotAtWidths(page, 'software-member-detail', page.getByText(M.routerInfoSoftwareTitle));
  }, 120_000);

  it('words its status view as a member’s too', async () => {
    await page.getByText(M.routerViewSoftwareStatus).click();
    await page.waitForURL(/view=status/, { timeout: WAIT_MS });
    await page.getByText(M.routerStatusTitle).waitFor({ timeout: WAIT_MS });
    expect((await fields(M.routerStatusTitle)).map(([label]) => label)).toEqual([M.memberColOnline, M.memberLogTime, M.routerStatusNetworks]);
    await noHardwareWords();
    await screenshotAtWidths(page, 'software-member-status', page.getByText(M.routerStatusTitle));
  }, 120_000);
});
