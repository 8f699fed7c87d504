import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M, TICKET_TYPE_ACCESS_POP } from '@hublink/contract';
import { addRouters, CONTEXT, launch, postAs, screenshot, settled, signedInTenant, startServer, type Server } from './support';
import { dialogHelpers, OK } from './dialogs';

const WIDTHS = [1440, 1280, 390];

/**
 * POP in Chromium against the real server (issue 12): a resource made by a completed access-POP order
 * (the event the network-ticket module emits), the POP resource config with its 423 → IP address pool
 * path, a member's POP areas, the resource list and the POP point config page at three widths.
 */
describe('POP resources in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let networkNumber = '';
  const stamp = String(Date.now() % 1_000_000);
  const username = `pop${stamp}`;
  const password = 'secret123';
  const [center, point] = [`gwpopc${stamp}`, `gwpopp${stamp}`];

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    let tenantId: number;
    ({ page, tenantId } = await signedInTenant(server, browser, { username, password, phone: `137${String(Date.now()).slice(-8)}`, nickname: 'POP测试' }));
    await addRouters(server, page, [center, point]);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: 'POP网络', center: [center], point: [point] });
    networkNumber = created.data!.network_number;
    // The operator completes the access-POP order: the network-ticket module says so with this event.
    await server.ctx.db.transaction().execute((trx) =>
      server.ctx.events.emit(trx, {
        type: 'network_ticket.completed',
        tenant_id: tenantId,
        ticket_id: Number(stamp) + 1,
        network_number: networkNumber,
        network_ticket_type: TICKET_TYPE_ACCESS_POP,
        attributes: { bandwidth: 100, pop: ['south', 'north', 'east'], expired_time: 1, pop_conf: { south: [center] } },
      }),
    );
    await server.ctx.events.settle();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig, choose } = dialogHelpers(() => page);
  /** A member's row of the member table (the link list has rows named after members too). */
  const row = (name: string) => page.locator(`tr[data-row-key="${name}"]`);

  it('the order’s resource is the network’s, with the ordered member in its area', async () => {
    await page.goto(`${server.url}/network/detail?network_number=${networkNumber}`);
    await page.getByText('华南·华北·华东 100M').first().waitFor();
    await expect.poll(() => row(center).textContent()).toContain('华南');
  });

  it('POP resource config: 423 warns, the pool dialog opens after 2.5 s, and saving the pool sets the resource', async () => {
    await openConfig(M.networkMenuFr);
    await dialog().getByRole('radio', { name: M.networkModePop }).click();
    await screenshot(page, 'pop-fr-dialog', dialog().getByRole('radio', { name: M.networkModePop }));
    await dialog().getByRole('button', { name: OK }).click();
    await page.getByText(M.popPoolMissing).first().waitFor();
    await page.getByText(M.popPoolForFr).waitFor();
    await settled(page);
    await dialog().getByLabel(M.popPoolPop).fill('10.9.0.0/16');
    await dialog().getByLabel(M.popPoolOther).fill('10.9.8.0/24');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText('POP网段与其他网段重叠，请重新设置！').first().waitFor();
    await screenshot(page, 'pop-pool-overlap', dialog().getByText('POP网段与其他网段重叠，请重新设置！').first());
    await dialog().getByLabel(M.popPoolOther).fill('');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().waitFor({ state: 'hidden' });
    await page.getByText(M.networkSetDone).first().waitFor();
    await expect.poll(() => page.getByText(M.networkModePop).count()).toBeGreaterThan(0);
  });

  it('refuses the same main and backup area, then sets a member’s main and backup area', async () => {
    await page.getByRole('button', { name: `${M.popOvEdit} ${point}` }).click();
    await dialog().waitFor();
    await settled(page);
    await choose(dialog().getByLabel(M.popOvMain), '华北');
    await choose(dialog().getByLabel(M.popOvBackup), '华北');
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().getByText(M.popAreaSame).waitFor();
    await choose(dialog().getByLabel(M.popOvBackup), '华东');
    await dialog().getByText(M.popAreaSame).waitFor({ state: 'hidden' });
    await screenshot(page, 'pop-member-areas', dialog().getByRole('button', { name: OK }));
    await dialog().getByRole('button', { name: OK }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => row(point).textContent()).toContain('华北');
  });

  it('lists the resource with its network and areas', async () => {
    await page.goto(`${server.url}/network/fr_lists`);
    const fr = page.getByRole('row').filter({ hasText: '华南·华北·华东 100M' });
    await fr.waitFor();
    await fr.getByRole('button').first().click();
    await page.getByText('POP网络').first().waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await screenshot(page, `pop-fr-lists-${width}`, page.getByText('POP网络').first());
    }
    await page.setViewportSize(CONTEXT.viewport);
  });

  it('moves a member between the pool and a region on the POP point config page and saves', async () => {
    await page.goto(`${server.url}/network/pop_edit?network_number=${networkNumber}`);
    const south = page.getByRole('region', { name: '华南 100Mbps' });
    await south.getByText(center).waitFor();
    await south.getByLabel(center).check();
    await page.getByRole('button', { name: `${M.popEditMoveOut} 华南` }).click();
    await page.getByRole('region', { name: M.popEditPool }).getByLabel(center).check();
    await page.getByRole('button', { name: `${M.popEditMoveIn} 华东` }).click();
    await page.getByRole('region', { name: '华东 100Mbps' }).getByText(center).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await screenshot(page, `pop-edit-${width}`, page.getByRole('region', { name: '华东 100Mbps' }).getByText(center));
    }
    await page.setViewportSize(CONTEXT.viewport);
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await page.getByText(M.saved).first().waitFor();
    const saved = await server.ctx.db
      .selectFrom('network_member as nm')
      .innerJoin('member as m', 'm.id', 'nm.member_id')
      .innerJoin('network_fr_area as a', 'a.id', 'nm.ov_main')
      .select('a.region')
      .where('m.router_name', '=', center)
      .executeTakeFirstOrThrow();
    expect(saved.region).toBe('east');
  });
});
