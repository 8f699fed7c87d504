import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { DIAGNOSIS_TITLE, fmt, M } from '@hublink/contract';
import { addRouters, launch, postAs, screenshotAtWidths, settled, signedInTenant, startServer, WAIT_MS, type Server } from './support';

const FAST = { firstMinMs: 50, firstMaxMs: 200, maxMs: 1_000, throttledMinMs: 1_000 };

/**
 * 诊断 in Chromium (issue 18): real (simulated) agents connect through the gateway; one is stopped, and the
 * console's 诊断 names the lost heartbeat with the last-seen time and address, from the member list and
 * from the router detail; the network shows who has not acknowledged its config.
 */
describe('device diagnosis in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let sim: Simulation | undefined;
  const stamp = String(Date.now() % 1_000_000);
  const center = `diaghq${stamp}`;
  const point = `diagshop${stamp}`;
  const secret = 'devsecret1';
  let networkNumber = '';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `diag${stamp}`, password: 'secret123', phone: `137${String(Date.now()).slice(-8)}`, nickname: '诊断测试' }));
    await addRouters(server, page, [center, point], { secret });
    networkNumber = (await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '诊断网络', center: [center], point: [point] })).data!.network_number;
    sim = simulate({ url: server.url, members: [center, point].map((router_name) => ({ kind: 'router' as const, router_name, secret })), startSpreadMs: 100, linkDelayMs: [10, 50], backoff: FAST });
  }, 60_000);

  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.close();
  });

  const dialog = () => page.getByRole('dialog').filter({ hasText: M.diagnosisTitle });

  it('names a stopped agent’s lost heartbeat with its last-seen time and address, from the member list', async () => {
    await expect.poll(() => sim!.counts().connected, { timeout: WAIT_MS }).toBe(2);
    await page.goto(`${server.url}/router/lists`);
    const row = page.getByRole('row').filter({ hasText: point });
    await row.locator('.ant-badge-status-success').waitFor({ timeout: WAIT_MS });
    // While it runs: online, its tunnel up once its agent reports it.
    await row.getByRole('button', { name: `${M.diagnosisAction} ${point}` }).click();
    await dialog().getByRole('columnheader', { name: M.diagnosisConfigCompiled }).waitFor({ timeout: WAIT_MS });
    await expect
      .poll(
        async () => {
          await dialog().getByRole('button', { name: M.diagnosisRefresh }).click();
          return dialog().getByText(fmt(M.diagnosisCauseLine, { cause: DIAGNOSIS_TITLE.healthy })).count();
        },
        { timeout: WAIT_MS + 15_000, interval: 1_000 },
      )
      .toBe(1);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    // The point's agent stops: its session ends and 诊断 says why, when and from where.
    await sim!.clients[1]!.stop();
    await page.reload();
    await page.getByRole('row').filter({ hasText: point }).locator('.ant-badge-status-default').waitFor({ timeout: WAIT_MS });
    await page.getByRole('row').filter({ hasText: point }).getByRole('button', { name: `${M.diagnosisAction} ${point}` }).click();
    await dialog().getByText(fmt(M.diagnosisCauseLine, { cause: DIAGNOSIS_TITLE.heartbeat_lost })).waitFor({ timeout: WAIT_MS });
    const text = (await dialog().textContent()) ?? '';
    expect(text).toMatch(/最后一次收到消息在 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}，来自 127\.0\.0\.1/);
    await settled(page);
    await screenshotAtWidths(page, 'diagnose-member-list', dialog().getByText(M.diagnosisLastSeen));
    await page.keyboard.press('Escape');
  }, 120_000);

  it('diagnoses from the router detail, and the network lists the member that has not acknowledged', async () => {
    await page.goto(`${server.url}/router/detail?router_name=${point}`);
    await page.getByRole('button', { name: M.diagnosisAction, exact: true }).click();
    await dialog().waitFor({ timeout: WAIT_MS });
    await expect.poll(async () => (await dialog().textContent()) ?? '', { timeout: WAIT_MS }).toContain(fmt(M.diagnosisCauseLine, { cause: DIAGNOSIS_TITLE.heartbeat_lost }));
    await settled(page);
    await screenshotAtWidths(page, 'diagnose-router-detail', dialog().getByText(M.diagnosisLastSeen));
    await page.keyboard.press('Escape');

    // A change while the point is away: the center acknowledges it, the point stays behind.
    expect((await postAs(server, page, '/network/dns', { network_number: networkNumber, dns: ['223.5.5.5'] })).code).toBe(200);
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    const card = page.getByTestId('delivery');
    await expect.poll(async () => (await card.textContent()) ?? '', { timeout: WAIT_MS + 15_000 }).toMatch(/已确认 1\/2/);
    await card.getByText(fmt(M.deliveryBehindCount, { n: 1 })).waitFor({ timeout: WAIT_MS });
    await screenshotAtWidths(page, 'diagnose-network-delivery', card.getByText(M.deliveryP95));
    await card.getByRole('button', { name: M.deliveryBehindView }).click();
    const list = page.getByRole('dialog').filter({ hasText: M.deliveryBehind });
    await list.getByRole('row').filter({ hasText: point }).waitFor({ timeout: WAIT_MS });
    expect(await list.getByRole('row').filter({ hasText: center }).count()).toBe(0);
    await screenshotAtWidths(page, 'diagnose-network-delivery-list', list.getByRole('row').filter({ hasText: point }));
    await page.keyboard.press('Escape');
  }, 120_000);
});
