import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, CM, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshotAtWidths, settled, signedInTenant, startServer, WAIT_MS, type Server } from './support';
import { OK } from './dialogs';

/** A software member's connection in Chromium (issue 30): its profile downloaded and re-issued from its row; the standard clients on the download page. */
describe("a software member's connection profile in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let networkNumber = '';
  const staff = `staff${Date.now() % 100_000}`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `prof${Date.now() % 1_000_000}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '配置测试' }));
    await addRouters(server, page, ['hq_center1']);
    await postAs(server, page, '/router/add', { router_type: 2, username: staff, password: 'Staff-pass1', note: '销售部' });
    networkNumber = (await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '总部网络', center: ['hq_center1'], point: [staff] })).data!.network_number;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const serialOf = (profile: string) => /<cert>\n([\s\S]+?)\n<\/cert>/.exec(profile)![1]!;

  async function downloadProfile(): Promise<string> {
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('row').filter({ hasText: networkNumber }).getByRole('button', { name: CM.profileDownload }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`${staff}-${networkNumber}.ovpn`);
    const { readFile } = await import('node:fs/promises');
    return readFile((await file.path())!, 'utf8');
  }

  it("opens from the member's row: the login, a profile per network and how to connect", async () => {
    await page.goto(`${server.url}/router/lists?type=2`);
    // The name opens /router/detail (spec 3 §2); the row's 连接与记录 opens the member's dialog (issue 31).
    await page.getByRole('button', { name: `${M.memberActionRecords} ${staff}` }).click();
    await page.getByRole('tab', { name: CM.profileTab }).waitFor();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('总部网络').waitFor();
    await dialog.getByText(CM.profileHowTo).waitFor();
    await dialog.getByText(new RegExp(`^${staff}@`)).first().waitFor();
    await settled(page);
    await screenshotAtWidths(page, 'member-connection', dialog.getByText(CM.profileHowTo));
  });

  it('downloads a profile with everything inline, and re-issues it: the next one carries a new certificate', async () => {
    const first = await downloadProfile();
    for (const tag of ['<ca>', '<cert>', '<key>', '<tls-crypt>', 'auth-user-pass']) expect(first).toContain(tag);
    await page.getByRole('button', { name: CM.profileReissue }).click();
    await page.getByText(CM.profileReissueConfirm).waitFor();
    await settled(page);
    await page.locator('.ant-popconfirm').getByRole('button', { name: OK }).click();
    await page.getByText(CM.profileReissued).first().waitFor();
    const second = await downloadProfile();
    expect(serialOf(second)).not.toBe(serialOf(first));
  });

  it('the download page of a fresh install offers the standard clients instead of being empty', async () => {
    await page.goto(`${server.url}/download`);
    await page.getByText(CM.standardClientsOnly, { exact: false }).waitFor();
    for (const name of [CM.standardClientConnect, CM.standardClientTunnelblick, CM.standardClientLinux]) await page.getByText(name, { exact: true }).first().waitFor();
    await screenshotAtWidths(page, 'download-standard-clients', page.getByText(CM.standardClientTunnelblickNote));
  });

  it('a router that never connected shows how to connect it', async () => {
    await page.goto(`${server.url}/router/detail?router_name=hq_center1`);
    await page.getByText(CM.onboardTitle).waitFor();
    await page.getByText(fmt(CM.onboardCommand, { url: server.url, name: 'hq_center1' })).waitFor();
    await screenshotAtWidths(page, 'router-onboarding', page.getByText(CM.onboardSecret));
  });
});
