import fs from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { fmt, M, NETWORK_DOCUMENT_KIND, type NetworkDocumentInput } from '@hublink/contract';
import { dialogHelpers } from './dialogs';
import { addRouters, launch, postAs, screenshotAtWidths, SCREENS, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/** A time as the API gives it (yyyy-MM-dd HH:mm:ss). */
const TIME = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`;

/** A message with every {placeholder} given but `time`, which may be any time: as a whole-text pattern. */
const timed = (template: string, values: Record<string, string | number>) =>
  new RegExp(`^${fmt(template, { ...values, time: '\u0000' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\u0000', TIME)}$`);

/**
 * Networks as code (issue 36) in Chromium against the real server: the network exported as YAML from its
 * detail page, that document applied through the API with another DNS, then the DNS changed in the
 * console's dialog: the drift notice above the configuration history names the field and the version
 * the console user wrote (pictures at 1440, 1280 and 390 px).
 */
describe('a network kept as code: export, apply, drift', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let networkNumber = '';
  let detailUrl = '';
  let exported = '';
  let appliedVersion = 0;
  const username = `ncode${Date.now() % 1_000_000}`;
  const centers = ['ac_c1', 'ac_c2'];
  const points = ['ac_p1', 'ac_p2'];
  const who = fmt(M.histWhoMain, { name: username });

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(
      server,
      browser,
      { username, password: 'secret123', phone: `135${String(Date.now()).slice(-8)}`, nickname: '文档测试' },
      { context: { acceptDownloads: true }, grant: { network_center_count: 2 } },
    ));
    await addRouters(server, page, [...centers, ...points]);
    const created = await postAs<{ network_number: string }>(server, page, '/network/create', { network_name: '文档网络', center: centers, point: points });
    networkNumber = created.data!.network_number;
    await postAs(server, page, '/network/dns', { network_number: networkNumber, dns: ['192.0.2.53'] });
    detailUrl = `${server.url}/network/detail?network_number=${networkNumber}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig, submit } = dialogHelpers(() => page);
  const history = () => page.getByRole('region', { name: M.histTab });
  const driftAlert = () => page.getByRole('alert').filter({ hasText: M.codeDriftTitle });
  const inStep = (version: number) => page.getByRole('status').filter({ hasText: fmt(M.codeDriftNone, { version }) });

  it('exports the network as YAML from its detail page: the document names its members', async () => {
    const drift = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/network/drift', { timeout: WAIT_MS });
    await page.goto(detailUrl);
    // No document was ever applied: the server says so, and the page says nothing about one.
    expect(((await (await drift).json()) as { data: unknown }).data).toBeNull();
    await history().getByText(M.histFieldDns).first().waitFor();
    expect(await driftAlert().count()).toBe(0);
    expect(await page.getByText(new RegExp(M.codeDriftNone.replace('{version}', String.raw`\d+`))).count()).toBe(0);
    expect(await page.getByText(M.codeDriftLoadFailed).count()).toBe(0);

    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('button', { name: new RegExp(M.codeExport) }).click();
    await page.getByRole('menuitem', { name: M.codeExportYaml }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`network-${networkNumber}.yaml`);
    await page.getByText(fmt(M.codeExported, { file: file.suggestedFilename() })).first().waitFor();
    exported = fs.readFileSync((await file.path())!, 'utf8');
    const doc = parse(exported) as NetworkDocumentInput;
    expect(doc.kind).toBe(NETWORK_DOCUMENT_KIND);
    expect(doc.name).toBe('文档网络');
    expect(doc.dns, exported).toEqual(['192.0.2.53']);
    expect((doc.centers ?? []).map((c) => c.name).sort()).toEqual(centers);
    expect((doc.points ?? []).map((p) => p.name).sort()).toEqual(points);
    // Nothing of the tenant's insides: no network number in the text.
    expect(exported).not.toContain(networkNumber);
  });

  it('applies the document with another DNS through the API: the page says the network matches it', async () => {
    const doc = parse(exported) as NetworkDocumentInput;
    const applied = await postAs<{ version: number | null; changed: boolean }>(server, page, '/network/apply', { network_number: networkNumber, document: stringify({ ...doc, dns: ['192.0.2.54'] }) });
    expect(applied.data).toMatchObject({ changed: true });
    appliedVersion = applied.data!.version!;
    await page.reload();
    await inStep(appliedVersion).waitFor();
    await history().getByText(M.codeAppliedSummary).first().waitFor();
    expect(await driftAlert().count()).toBe(0);
  });

  it("lists the DNS changed in the console's dialog, with the version the console user wrote, above the history", async () => {
    await openConfig(M.networkMenuDns);
    await dialog().getByLabel(`${M.netSetDnsRow} 1`, { exact: true }).fill('192.0.2.55');
    await submit(M.saved);

    // The save refreshes the notice without a reload.
    const notice = driftAlert();
    await notice.waitFor();
    await expectDrift(notice);

    // And it is what the server says on a fresh page.
    await page.reload();
    await driftAlert().waitFor();
    await expectDrift(driftAlert());
    const noticeBox = (await driftAlert().boundingBox())!;
    const historyBox = (await history().boundingBox())!;
    expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(historyBox.y);

    // Within the screen at every width: nothing wider than the window, the notice's text wraps.
    for (const { width, height } of SCREENS) {
      await page.setViewportSize({ width, height });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: WAIT_MS }).toBeLessThanOrEqual(width);
      const box = (await driftAlert().boundingBox())!;
      expect(box.x, `left edge at ${width}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `right edge at ${width}`).toBeLessThanOrEqual(width);
    }
    await screenshotAtWidths(page, 'network-drift', driftAlert().getByText('192.0.2.55'));
  });

  async function expectDrift(notice: Locator) {
    await notice.getByText(timed(M.codeDriftText, { version: appliedVersion, who })).waitFor();
    const changed = notice.getByRole('list', { name: M.codeDriftTitle }).getByRole('listitem');
    await expect.poll(() => changed.allTextContents(), { timeout: WAIT_MS }).toEqual([`${M.histFieldDns}192.0.2.54 → 192.0.2.55`]);
    const since = notice.getByRole('list', { name: M.codeDriftSince }).getByRole('listitem');
    await expect.poll(() => since.count(), { timeout: WAIT_MS }).toBe(1);
    expect(await since.first().textContent()).toMatch(timed(M.codeDriftBy, { who, summary: M.histFieldDns }));
  }
});
