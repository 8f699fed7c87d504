import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActionName, EXPORT_COLUMNS, fmt, M, rollbackNetwork } from '@hublink/contract';
import { dialogHelpers, OK } from './dialogs';
import { CONTEXT, expectPath, lastCode, launch, screenshotAtWidths, settled, sheetRows, signIn, startServer, trackCaptcha, WAIT_MS, type Server } from './support';

/** A button's name as antd renders it: two Chinese characters get a space between them. */
const spaced = (text: string) => new RegExp(`^${text.split('').join('\\s?')}$`);

/** The whole first task of a new tenant, one step after another: a step fails, the task fails (issue 31). */
const TASK_MS = 600_000;

/**
 * A new tenant's first task in Chromium, as one test, all through the console: register, add members,
 * create a network (its name typed the moment the page opens, and kept), change a setting, see the
 * configuration history, roll back, find the rollback in the audit log, export the members, and
 * re-import the exported file: the members are removed with that file (bulk delete, file mode) and
 * the same file brings them back.
 */
describe('a new tenant’s first task in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const stamp = String(Date.now() % 1_000_000);
  const username = `first${stamp}`;
  const password = 'secret123';
  const phone = `135${String(Date.now()).slice(-8)}`;
  const network = `首个网络${stamp.slice(-3)}`;
  const hardware = [`gwhq${stamp}`, `gwbr${stamp}`];
  const software = [`alice${stamp}`, `bob${stamp}`];
  const DNS = '223.5.5.5';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', acceptDownloads: true })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const { dialog, openConfig, submit } = dialogHelpers(() => page);

  async function register() {
    await page.goto(`${server.url}/register`);
    await page.getByLabel('昵称').fill('首次使用');
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('密码', { exact: true }).fill(password);
    await page.getByLabel('确认密码').fill(password);
    await page.getByLabel('手机号码').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText(/\d+秒后重试/).waitFor();
    await page.getByLabel('验证码').fill(await lastCode(server, `+86 ${phone}`));
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^注\s?册$/ }).click();
    await page.getByText(M.registerSuccess).first().waitFor();
    await expectPath(page, '/login');
  }

  /** Adds one member through the add dialog of the current tab and waits for its row. */
  async function addMember(name: string, secret: string, note: string, isHardware: boolean) {
    await page.getByRole('button', { name: new RegExp(M.memberAdd) }).click();
    await dialog().getByText(isHardware ? M.memberAddHardwareTitle : M.memberAddSoftwareTitle).waitFor();
    await settled(page);
    await dialog().getByLabel(isHardware ? M.memberDeviceName : M.memberAccountLabel, { exact: true }).fill(name);
    await dialog().getByLabel(isHardware ? M.memberDeviceSecret : M.memberPasswordLabel, { exact: true }).fill(secret);
    await dialog().getByLabel(M.memberNoteLabel).fill(note);
    await dialog().getByRole('button', { name: OK }).click();
    await page.getByRole('cell', { name, exact: true }).waitFor();
    await dialog().waitFor({ state: 'hidden' });
  }

  async function addMembers() {
    await page.goto(`${server.url}/router/lists`);
    await page.getByRole('tab', { name: M.memberTabHardware }).waitFor();
    await addMember(hardware[0]!, 'devsecret01', '总部', true);
    await addMember(hardware[1]!, 'devsecret02', '分部', true);
    await page.getByRole('tab', { name: M.memberTabSoftware }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('2');
    await addMember(software[0]!, 'alicepass1', '财务', false);
    await addMember(software[1]!, 'bobpass01', '销售', false);
  }

  /** The name is typed the moment the page opens, before its member lists are in; it is kept. */
  async function createNetwork(): Promise<string> {
    await page.goto(`${server.url}/network/lists`);
    await page.getByRole('button', { name: new RegExp(M.networkCreate) }).click();
    await expectPath(page, '/network/create');
    // Exact: the list's search box, still on screen while the page loads, says 请输入网络名称或编号搜索.
    const name = page.getByPlaceholder(M.networkNameRequired, { exact: true });
    await name.fill(network);
    const center = page.getByRole('button', { name: `${M.networkPositionCenter} ${hardware[0]}` });
    await center.waitFor();
    expect(await name.inputValue()).toBe(network);
    await center.click();
    for (const point of [hardware[1]!, ...software]) await page.getByRole('button', { name: `${M.networkPositionPoint} ${point}` }).click();
    await expect.poll(() => page.getByRole('button', { name: new RegExp(`^${M.networkRemove} `) }).count()).toBe(4);
    expect(await name.inputValue()).toBe(network);
    await page.getByRole('button', { name: spaced(M.networkSave) }).click();
    await expectPath(page, '/network/detail');
    await page.getByText(network).first().waitFor();
    return new URL(page.url()).searchParams.get('network_number')!;
  }

  const history = () => page.getByRole('region', { name: M.histTab });
  const versionRow = (n: number) => history().locator(`tr[data-row-key="${n}"]`);

  async function changeSettingSeeHistoryRollBack() {
    // A setting: a DNS server, saved in its dialog.
    await versionRow(1).getByText(M.histCreated).waitFor();
    await openConfig(M.networkMenuDns);
    await dialog().getByRole('button', { name: M.netSetDnsAdd }).click();
    await dialog().getByLabel(`${M.netSetDnsRow} 1`, { exact: true }).fill(DNS);
    await submit(M.saved);
    // The history: the change is version 2, the network as it is.
    await versionRow(2).getByText(M.histFieldDns, { exact: true }).waitFor();
    await versionRow(2).getByText(M.histCurrentVersion).waitFor();
    // Back to version 1, after seeing what will change.
    await versionRow(1).getByRole('button', { name: M.histRollback }).click();
    const confirmation = page.getByRole('dialog').filter({ hasText: fmt(M.histRollbackConfirm, { n: 1 }) });
    await confirmation.locator('tr[data-changed="1"]', { hasText: M.histFieldDns }).getByText(DNS).waitFor();
    await settled(page);
    await confirmation.getByRole('button', { name: OK }).click();
    await page.getByText(fmt(M.histRollbackDone, { n: 1 })).first().waitFor();
    await versionRow(3).getByText(fmt(M.histRollbackTo, { n: 1 })).waitFor();
  }

  /** Only what the audit page keeps whatever its wording and layout: an entry of the rollback is there. */
  async function rollbackInAuditLog() {
    await page.goto(`${server.url}/audit`);
    await page.locator('tbody tr.ant-table-row').filter({ hasText: auditActionName(rollbackNetwork.path) }).first().waitFor({ timeout: WAIT_MS });
  }

  async function exportMembers(): Promise<string> {
    await page.goto(`${server.url}/router/lists?type=2`);
    await page.getByRole('cell', { name: software[0], exact: true }).waitFor();
    const downloaded = page.waitForEvent('download', { timeout: WAIT_MS });
    await page.getByRole('button', { name: new RegExp(M.memberExport) }).click();
    // Kept under the name the console gave it (成员列表-yyyyMMdd.xlsx), as a browser would save it.
    const download = await downloaded;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-first-')), download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const rows = await sheetRows(file);
    expect(rows[0]).toEqual([...EXPORT_COLUMNS]);
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual([...software].sort());
    return file;
  }

  async function removeWithTheFile(file: string) {
    await page.getByRole('button', { name: M.memberBatchDelete }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: M.memberBatchDeleteConfirmHint });
    await settled(page);
    await confirm.getByLabel(`请输入“${M.confirmPhrase}”`).fill(M.confirmPhrase);
    await confirm.getByRole('button', { name: OK }).click();
    const batch = page.getByRole('dialog').filter({ hasText: M.memberBatchModeFile });
    await batch.getByText(M.memberBatchModeFile).click();
    await batch.locator('input[type=file]').setInputFiles(file);
    await batch.getByRole('button', { name: spaced(M.memberBatchDeleteSubmit) }).click();
    // The result replaces the form in the dialog.
    await page.getByRole('dialog').getByText(fmt(M.memberBatchSummary, { ok: software.length, fail: 0 })).waitFor({ timeout: WAIT_MS });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('cell', { name: software[0], exact: true }).count(), { timeout: WAIT_MS }).toBe(0);
  }

  async function reimport(file: string) {
    await page.getByRole('button', { name: M.memberBatchAdd }).click();
    const batch = page.getByRole('dialog');
    await settled(page);
    await batch.locator('input[type=file]').setInputFiles(file);
    await batch.getByRole('button', { name: M.memberUploadSubmit }).click();
    const summary = batch.getByText(fmt(M.memberBatchSummary, { ok: software.length, fail: 0 }));
    await summary.waitFor({ timeout: WAIT_MS });
    // The export carries no password: each member is back without one, and the row says so.
    await expect.poll(() => batch.getByText(M.importAddedNoPassword).count()).toBe(software.length);
    await screenshotAtWidths(page, 'first-task-reimport', summary);
    await page.keyboard.press('Escape');
    await batch.waitFor({ state: 'hidden' });
    for (const name of software) await page.getByRole('cell', { name, exact: true }).waitFor({ timeout: WAIT_MS });
  }

  it(
    'registers, adds members, creates a network, changes and rolls back a setting, finds it audited, exports and re-imports the members',
    async () => {
      await register();
      await signIn(page, server, trackCaptcha(page, server), username, password);
      await addMembers();
      await createNetwork();
      await changeSettingSeeHistoryRollBack();
      await rollbackInAuditLog();
      const file = await exportMembers();
      await removeWithTheFile(file);
      await reimport(file);
    },
    TASK_MS,
  );
});
