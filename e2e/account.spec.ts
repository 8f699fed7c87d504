import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import * as messages from '../packages/server/src/modules/message/service';
import { CONTEXT, codeSentBy, expectPath, launch, registerByApi, screenshot, settled, signIn, startServer, trackCaptcha, WAIT_MS, type Server } from './support';

describe('account pages and messages in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let captcha: ReturnType<typeof trackCaptcha>;
  const username = `acc${Date.now() % 1_000_000}`;
  const phone = `136${String(Date.now()).slice(-8)}`;
  const newPhone = `135${String(Date.now()).slice(-8)}`;
  const email = `${username}@example.com`;
  let password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext(CONTEXT)).newPage();
    captcha = trackCaptcha(page, server);
    await registerByApi(server, { username, password, phone, nickname: '账号测试' });
    await signIn(page, server, captcha, username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The card of the information page with this title. */
  const card = (title: string) => page.locator('.ant-card').filter({ has: page.getByText(title, { exact: true }) });

  it('binds an email on the information page', async () => {
    await page.goto(`${server.url}/account`);
    await card('邮箱').getByRole('button', { name: '立即绑定' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('邮箱').fill(email);
    const code = await codeSentBy(server, email, () => dialog.getByRole('button', { name: '获取验证码' }).click());
    await dialog.getByLabel('验证码').fill(code);
    await settled(page);
    await screenshot(page, 'account-bind-email', dialog.getByLabel('验证码'));
    // Success reloads the page after 1.5 s; the card then shows the address.
    const reloaded = page.waitForEvent('load', { timeout: WAIT_MS });
    await dialog.getByRole('button', { name: /^绑\s?定$/ }).click();
    await reloaded;
    await card('邮箱').getByText(email).waitFor();
  });

  it('binds a new phone through verify mode (the old phone is proved first)', async () => {
    await page.goto(`${server.url}/account`);
    await card('手机号码').getByRole('button', { name: '绑定/解绑' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('手机号码').fill(newPhone);
    const bindCode = await codeSentBy(server, `+86 ${newPhone}`, () => dialog.getByRole('button', { name: '获取验证码' }).click());
    await dialog.getByLabel('验证码').fill(bindCode);
    await dialog.getByRole('button', { name: /^绑\s?定$/ }).click();
    // The account already has a phone: the dialog switches to verify mode with the old phone.
    await dialog.getByRole('button', { name: /^验\s?证$/ }).waitFor();
    await settled(page);
    await screenshot(page, 'account-bind-phone-verify', dialog.getByRole('button', { name: /^验\s?证$/ }));
    const verifyCode = await codeSentBy(server, `+86 ${phone}`, () => dialog.getByRole('button', { name: '获取验证码' }).click());
    await dialog.getByLabel('验证码').fill(verifyCode);
    const reloaded = page.waitForEvent('load', { timeout: WAIT_MS });
    await dialog.getByRole('button', { name: /^验\s?证$/ }).click();
    await reloaded;
    await card('手机号码').getByText(newPhone).waitFor();
  });

  it('changes the password through the three-step wizard', async () => {
    await page.goto(`${server.url}/account/password`);
    const code = await codeSentBy(server, `+86 ${newPhone}`, () => page.getByRole('button', { name: '获取验证码' }).click());
    await page.getByLabel('验证码').fill(code);
    await page.getByRole('button', { name: /下一步/ }).click();
    password = 'changed789';
    await page.getByLabel('新密码').fill(password);
    await page.getByLabel('重复密码').fill(password);
    await screenshot(page, 'account-password-step2', page.getByLabel('重复密码'));
    await page.getByRole('button', { name: /确\s?定|提\s?交|下一步|确认修改/ }).click();
    await page.getByText('密码修改成功').first().waitFor();
    await screenshot(page, 'account-password-done', page.getByText('密码修改成功'));
    // The new password signs in elsewhere (this session stays signed in).
    const other = await (await browser.newContext(CONTEXT)).newPage();
    await signIn(other, server, trackCaptcha(other, server), username, password);
    await other.context().close();
  });

  it('reads a message (which marks it read) and deletes the selected one after confirmation', async () => {
    const tenant = await server.ctx.db.selectFrom('account').select('id').where('username_key', '=', username).executeTakeFirstOrThrow();
    await messages.send(server.ctx, tenant.id, { title: '网络到期提醒', content: '<p>您的网络将于<b>7天后</b>到期。</p>' });
    await messages.send(server.ctx, tenant.id, { title: '系统维护通知', content: '<p>本周六凌晨维护。</p>' });

    await page.goto(`${server.url}/account/message`);
    await page.getByText('系统维护通知').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('本周六凌晨维护。').waitFor();
    await settled(page);
    await screenshot(page, 'message-dialog', dialog.getByText('本周六凌晨维护。'));
    await page.keyboard.press('Escape');
    const read = await server.ctx.db.selectFrom('message').select('status').where('title', '=', '系统维护通知').executeTakeFirstOrThrow();
    expect(read.status).toBe(1);

    // Nothing selected: the spec's warning.
    await page.getByRole('button', { name: /删除选中/ }).click();
    await page.getByText(M.selectMessage).first().waitFor();

    const row = page.locator('tr').filter({ hasText: '网络到期提醒' });
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: /删除选中/ }).click();
    // Click the confirmation only once its dialog has finished zooming in.
    await page.getByRole('dialog', { name: M.confirmDelete }).waitFor();
    await settled(page);
    await page.getByRole('button', { name: /确\s?定|OK/ }).last().click();
    await page.getByText(M.deleted).first().waitFor();
    // The toast comes with the call's answer; the list's refetch follows it.
    await page.locator('tr').filter({ hasText: '网络到期提醒' }).waitFor({ state: 'detached' });
    await page.getByText('系统维护通知').waitFor();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await screenshot(page, 'messages', page.getByText('系统维护通知'));
    await expectPath(page, '/account/message');
  });
});
