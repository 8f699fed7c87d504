import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { pngImage } from '../packages/server/test/images';
import { expectPath, launch, screenshotAtWidths, signedInTenant, startServer, WAIT_MS, type Server } from './support';

declare global {
  interface Window {
    cspViolations: string[];
  }
}

const OK = /确\s?定|OK/;
/** antd spaces a two-character Chinese label ('提 交'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);

/** Two images that look different: blue over white, orange over grey. */
const SCREEN_A = pngImage(320, 200, [
  [24, 144, 255],
  [240, 245, 255],
]);
const SCREEN_B = pngImage(320, 200, [
  [250, 140, 22],
  [235, 235, 235],
]);
const ADVISER_SHOT = pngImage(320, 200, [
  [82, 196, 26],
  [246, 255, 237],
]);

/** Waits until every image of `scope` named as a ticket's has been drawn from its blob URL. */
async function imagesDrawn(scope: Locator, count: number) {
  const images = scope.getByRole('img', { name: new RegExp(`^${M.supportImageAlt}`) });
  await expect.poll(() => images.count(), { timeout: WAIT_MS }).toBe(count);
  await expect
    .poll(() => images.evaluateAll((list) => list.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0 && (i as HTMLImageElement).src.startsWith('blob:'))), {
      timeout: WAIT_MS,
    })
    .toBe(true);
}

/** The colour of the top-left pixel of each ticket image in `scope`, read from its blob through a canvas. */
const topColors = (scope: Locator) =>
  scope.getByRole('img', { name: new RegExp(`^${M.supportImageAlt}`) }).evaluateAll((list) =>
    list.map((img) => {
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context = canvas.getContext('2d')!;
      context.drawImage(img as HTMLImageElement, 0, 0);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }),
  );

/**
 * Support tickets in Chromium (issue 15): a tenant raises a ticket with two images, the operator finds
 * it with `hublink ops tickets list` and an adviser answers with an image through `hublink ops tickets
 * reply` (the real CLI, a process of its own on the server's database), the tenant sees the answer and
 * its image in the dialogue and in the preview, is told in the message centre, and rates the service,
 * after which the rating is read only and the reply box gone. The three pages at 1440, 1280 and 390
 * pixels wide.
 */
describe('support tickets in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let ticketNumber = '';
  const stamp = String(Date.now() % 1_000_000);
  /** Where the adviser's screenshot lies on the operator's disk. */
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-e2e-ticket-'));

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `tkt${stamp}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '工单测试' }));
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${location.pathname} ${(e.target as Element | null)?.outerHTML?.slice(0, 200) ?? ''}`));
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('raises a ticket with two images from the list', async () => {
    await page.goto(`${server.url}/ticket/lists`);
    await page.getByText(M.empty).waitFor();
    await page.getByText('工作时间：周一至周五 9:00-18:00', { exact: false }).waitFor();
    await page.getByRole('button', { name: new RegExp(M.supportCreate) }).click();
    await expectPath(page, '/ticket/create');

    // The rules answer before anything is sent.
    await page.getByRole('button', { name: label(M.supportSubmit) }).click();
    await page.getByText(M.supportTitleRequired).waitFor();
    await page.getByText(M.supportTypeRequired).waitFor();

    await page.getByLabel(M.supportFieldTitle).fill('分支机构无法连接总部');
    await page.getByLabel(M.supportFieldContent).fill('上海分支的路由器从今天上午开始无法连接到总部网络，重启后仍然不行。\n截图见附件。');
    await page.getByRole('radio', { name: M.supportTypeNetworking }).check();
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await page.getByText(M.supportImageFormat).first().waitFor();
    await input.setInputFiles([
      { name: 'status.png', mimeType: 'image/png', buffer: SCREEN_A },
      { name: 'console.png', mimeType: 'image/png', buffer: SCREEN_B },
    ]);
    await imagesDrawn(page.locator('form'), 2);
    // In the order they were picked: the blue one, then the orange one.
    expect(await topColors(page.locator('form'))).toEqual([
      [24, 144, 255],
      [250, 140, 22],
    ]);
    await screenshotAtWidths(page, 'ticket-create', page.getByRole('img', { name: `${M.supportImageAlt} 2` }));
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);

    await page.getByRole('button', { name: label(M.supportSubmit) }).click();
    await page.getByText(M.supportCreated).first().waitFor();
    await expectPath(page, '/ticket/detail');
    ticketNumber = new URL(page.url()).searchParams.get('ticket_number') ?? '';
    expect(ticketNumber).toMatch(/^T\d{14}$/);
    await page.getByText(ticketNumber).waitFor();
    await page.getByText(M.supportStatusPending).waitFor();
    await imagesDrawn(page.locator('.ant-descriptions'), 2);
    expect(await topColors(page.locator('.ant-descriptions'))).toEqual([
      [24, 144, 255],
      [250, 140, 22],
    ]);
    await page.getByText(M.supportNoDialogue).waitFor();
  });

  it('finds it in the list, searched by its title', async () => {
    await page.goto(`${server.url}/ticket/lists`);
    const row = page.getByRole('row').filter({ hasText: ticketNumber });
    await row.getByText(M.supportStatusPending).waitFor();
    await page.getByPlaceholder(M.supportSearch).fill('无法连接');
    await page.getByPlaceholder(M.supportSearch).press('Enter');
    await row.waitFor();
    await screenshotAtWidths(page, 'ticket-list', row);
  });

  it('shows the adviser’s answer with its image, previews it, and tells the tenant in the message centre', async () => {
    // The operator sees the ticket waiting first, then answers it from the command line.
    const open = await server.ops(['tickets', 'list', '--json']);
    expect(open.code, open.err).toBe(0);
    expect((JSON.parse(open.out) as { number: string; status: string; title: string }[])[0]).toMatchObject({ number: ticketNumber, status: 'pending', title: '分支机构无法连接总部' });
    const shot = path.join(files, 'wan-check.png');
    fs.writeFileSync(shot, ADVISER_SHOT);
    const answered = await server.ops(['tickets', 'reply', ticketNumber, '--content', '您好，已看到截图。请在路由器上检查WAN口的拨号状态，然后再试一次。', '--adviser', '客服小刘', '--image', shot]);
    expect(answered.code, answered.err).toBe(0);
    const list = page.getByRole('row').filter({ hasText: ticketNumber });
    await page.reload();
    await list.getByText(M.supportStatusReplied).waitFor();
    await list.getByRole('link', { name: M.supportActionView }).click();
    await expectPath(page, '/ticket/detail');
    const dialogue = page.getByRole('list', { name: M.supportDialogue });
    const answer = dialogue.getByRole('listitem').filter({ hasText: '客服小刘' });
    await answer.getByText('请在路由器上检查WAN口的拨号状态').waitFor();
    await answer.getByText(M.supportServiceTag, { exact: true }).waitFor();
    await imagesDrawn(answer, 1);
    expect(await topColors(answer)).toEqual([[82, 196, 26]]);
    await answer.getByRole('img', { name: new RegExp(M.supportImageAlt) }).click();
    const preview = page.locator('.ant-image-preview-img');
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    // The pictures show the page at rest: no hover mask, no focus ring left by the preview.
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshotAtWidths(page, 'ticket-detail', answer.getByRole('img', { name: new RegExp(M.supportImageAlt) }));

    await page.goto(`${server.url}/account/message`);
    await page.getByText(fmt(M.supportNoticeTitle, { number: ticketNumber })).waitFor();
  });

  it('replies, then rates the service: the rating becomes read only and the reply box goes', async () => {
    await page.goto(`${server.url}/ticket/detail?ticket_number=${ticketNumber}`);
    await page.getByLabel(M.supportReplyTitle).fill('已检查，拨号正常，现在可以连接了，谢谢！');
    await page.getByRole('button', { name: label(M.supportReplySubmit) }).click();
    await page.getByText(M.replied).first().waitFor();
    await page.getByRole('list', { name: M.supportDialogue }).getByText('已检查，拨号正常').waitFor();

    await page.getByRole('button', { name: M.supportAppraiseSubmit }).click();
    await page.getByText(M.supportGradeRequired).waitFor();
    await page.getByRole('radio').nth(4).click();
    await page.getByLabel(M.supportAppraiseContent).fill('响应很快，问题已解决。');
    await page.getByRole('button', { name: M.supportAppraiseSubmit }).click();
    await page.getByText(M.commented).first().waitFor();
    await page.getByText(M.supportStatusClosed).waitFor();
    await expect.poll(() => page.getByRole('button', { name: M.supportAppraiseSubmit }).count(), { timeout: WAIT_MS }).toBe(0);
    expect(await page.getByLabel(M.supportReplyTitle).count()).toBe(0);
    expect(await page.getByLabel(M.supportAppraiseContent).getAttribute('readonly')).not.toBeNull();
    expect(await page.locator('.ant-rate-disabled').count()).toBe(1);
    await screenshotAtWidths(page, 'ticket-detail-rated', page.locator('.ant-rate-disabled'));
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  });

  it('deletes the ticket after confirmation and lands on the empty list', async () => {
    await page.getByRole('button', { name: label(M.supportActionDelete) }).click();
    await page.getByText(M.confirmDelete).waitFor();
    await page.locator('.ant-popover').getByRole('button', { name: OK }).click();
    await expectPath(page, '/ticket/lists');
    await page.getByText(M.empty).waitFor();
  });
});
