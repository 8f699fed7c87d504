import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, IMPORT_COLUMNS, M } from '@hublink/contract';
import { CONTEXT, launch, screenshot, SCREEN_WIDTHS, settled, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/** Rows enough for the job to run a while (each needs a password hash); every 20th is refused. */
const ROWS = 300;
const REFUSED = ROWS / 20;
/** The whole import on a loaded 2-core machine, as a bound. */
const IMPORT_MS = 600_000;

async function importWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('成员');
  sheet.addRow([...IMPORT_COLUMNS]);
  for (let i = 0; i < ROWS; i++) sheet.addRow([`imp${String(i).padStart(4, '0')}`, i % 20 === 19 ? '123' : `pass${1000 + i}`, '', '', '批量']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Pictures of the page at each width, named `<name>-<width>`; the viewport is put back after. */
async function atWidths(page: Page, name: string, ready: () => ReturnType<Page['getByText']>) {
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await settled(page);
    await screenshot(page, `${name}-${width}`, ready());
  }
  await page.setViewportSize(CONTEXT.viewport);
}

describe('bulk import as a job in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const n = Date.now() % 1_000_000;
    ({ page } = await signedInTenant(server, browser, { username: `imp${n}`, password: 'secret123', phone: `135${String(Date.now()).slice(-8)}`, nickname: '导入测试' }));
    await server.ctx.db.updateTable('account').set({ network_router_count: 1000 }).where('username_key', '=', `imp${n}`).execute();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the progress while the job runs, keeps it when the dialog is closed and opened again, then the result', async () => {
    await page.goto(`${server.url}/router/lists?type=2`);
    await page.getByRole('button', { name: M.memberBatchAdd }).click();
    let dialog = page.getByRole('dialog');
    await settled(page);
    await dialog.locator('input[type=file]').setInputFiles({
      name: '批量添加.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await importWorkbook(),
    });
    await dialog.getByRole('button', { name: M.memberUploadSubmit }).click();
    // A step or more in, so that the bar shows some progress.
    const progress = () => dialog.getByText(/^已处理 [1-9]\d* \/ 300 行，失败 \d+ 行$/);
    await progress().waitFor({ timeout: WAIT_MS });
    await dialog.getByRole('progressbar').waitFor();
    await atWidths(page, 'members-import-progress', progress);

    // Closing does not stop the job; opening the dialog again shows where it is.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: M.memberBatchAdd }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText(M.importRunningHint).waitFor({ timeout: WAIT_MS });
    // Reopened mid-run, it lists the rows refused so far (every 20th: row 21 is the first).
    await dialog.getByRole('cell', { name: 'imp0019', exact: true }).waitFor({ timeout: WAIT_MS });
    await dialog.getByText(M.importPasswordRule).first().waitFor();
    await atWidths(page, 'members-import-reopened', () => dialog.getByRole('cell', { name: 'imp0019', exact: true }));

    const summary = () => dialog.getByText(fmt(M.memberBatchSummary, { ok: ROWS - REFUSED, fail: REFUSED }));
    await summary().waitFor({ timeout: IMPORT_MS });
    await atWidths(page, 'members-import-result', summary);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(fmt(M.memberQuantity, { n: ROWS - REFUSED, max: 1000 })).waitFor({ timeout: WAIT_MS });
  }, IMPORT_MS + 120_000);

  it('refuses a file whose header is not the template’s, naming the columns it did not understand', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('成员').addRows([['用户名', '密码', '区号', '手机号码', '备注'], ['abc001', 'pass1234', '', '', '']]);
    await page.getByRole('button', { name: M.memberBatchAdd }).click();
    const dialog = page.getByRole('dialog');
    await settled(page);
    // The last import's result is offered on the form.
    await dialog.getByText(M.importLastView).waitFor({ timeout: WAIT_MS });
    await dialog.locator('input[type=file]').setInputFiles({
      name: '成员.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    await dialog.getByRole('button', { name: M.memberUploadSubmit }).click();
    const detail = `${fmt(M.fileHeaderMissing, { cols: fmt(M.fileHeaderColumn, { name: '账号' }) })}${M.fileHeaderPartSep}${fmt(M.fileHeaderUnknown, { cols: fmt(M.fileHeaderColumn, { name: '用户名' }) })}`;
    await page.getByText(fmt(M.fileHeaderDetail, { detail })).first().waitFor({ timeout: WAIT_MS });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows software members’ names whole at every width, each opening /router/detail; the add form shows the position, disabled', async () => {
    await page.goto(`${server.url}/router/lists?type=2`);
    const first = page.getByRole('link', { name: 'imp0298', exact: true });
    await first.waitFor({ timeout: WAIT_MS });
    await atWidths(page, 'members-software-list', () => page.getByRole('link', { name: 'imp0298', exact: true }));
    // Never broken mid-name: the name's box is one line high at 390 px.
    await page.setViewportSize({ width: 390, height: 900 });
    const lines = await first.evaluate((a) => a.getClientRects().length);
    expect(lines).toBe(1);
    await page.setViewportSize(CONTEXT.viewport);
    await page.getByRole('button', { name: new RegExp(M.memberAdd) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radiogroup', { name: M.memberPositionLabel }).waitFor();
    expect(await dialog.getByRole('radio', { name: M.networkPositionPoint }).isChecked()).toBe(true);
    expect(await dialog.getByRole('radio', { name: M.networkPositionCenter }).isDisabled()).toBe(true);
    await atWidths(page, 'members-add-software', () => dialog.getByText(M.memberPositionSoftwareHint));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await first.click();
    await page.waitForURL((u) => u.pathname === '/router/detail' && u.searchParams.get('router_name') === 'imp0298', { timeout: WAIT_MS });
    await page.getByText(M.routerInfoSoftwareTitle).first().waitFor({ timeout: WAIT_MS });
    await atWidths(page, 'router-detail-software', () => page.getByText(M.routerInfoSoftwareTitle).first());
  });
});
