import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '@hublink/contract';
import { publish } from '../packages/server/src/modules/announcement/service';
import { send } from '../packages/server/src/modules/message/service';
import { grant } from '../packages/server/src/modules/service/service';
import { CONTEXT, launch, openUserMenu, registerByApi, screenshot, settled, signIn, startServer, trackCaptcha, type Server } from './support';

/** A 640×360 picture (an SVG in an <img>, which runs nothing), so the announcement has an image to open. */
const PICTURE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#e6f4ff"/>' +
    '<rect x="40" y="40" width="560" height="280" rx="12" fill="#1677ff"/>' +
    '<text x="320" y="195" font-size="40" text-anchor="middle" fill="#fff">2月9日–2月17日 值班</text></svg>',
)}`;
const OK = /确\s?定|OK/;

/** Waits until the table has loaded and faded back in (a screenshot would catch it pale). */
const tableShown = (page: Page) =>
  page.waitForFunction(() => {
    const box = document.querySelector('.ant-table-wrapper .ant-spin-container');
    return box !== null && !box.classList.contains('ant-spin-blur') && getComputedStyle(box).opacity === '1';
  });

describe('messages, announcements and services in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  const username = `msg${Date.now() % 1_000_000}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    page = await (await browser.newContext(CONTEXT)).newPage();
    await registerByApi(server, { username, password, phone: `136${String(Date.now()).slice(-8)}`, nickname: '消息测试' });
    const tenant = await server.ctx.db.selectFrom('account').select('id').where('username_key', '=', username).executeTakeFirstOrThrow();
    // What the operator side would send: three messages (one with a script that must not run), services, announcements.
    await send(server.ctx, tenant.id, { title: '欢迎使用', content: '<p>欢迎使用智能组网。</p>' });
    await send(server.ctx, tenant.id, { title: '工单已回复', type: 'ticket', content: '<p>您的工单已有回复。</p>' });
    await send(server.ctx, tenant.id, {
      title: '服务即将到期',
      type: 'service',
      content: '<p>您的<strong>成员扩容包</strong>将于 7 天后到期<img src="x" onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>，请及时续费。</p>',
    });
    const day = 86_400_000;
    await grant(server.ctx, tenant.id, { service_name: '成员扩容包', quantity: 20, start_time: Date.now() - 30 * day, expired_time: Date.now() + 7 * day });
    await grant(server.ctx, tenant.id, { service_name: 'POP流量包', quantity: 500, start_time: Date.now() - day, expired_time: Date.now() + 365 * day });
    await publish(server.ctx, { title: '新增华东POP节点', tag: '产品动态', content: '<p>华东POP节点已上线。</p>', release_time: Date.now() - 2 * day });
    await publish(server.ctx, { title: '春节期间服务安排', tag: '通知', content: `<p>春节期间照常服务，值班安排见下图：</p><p><img src="${PICTURE}" alt="值班安排" width="240"></p>` });
    await signIn(page, server, trackCaptcha(page, server), username, password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a message from the message centre, which marks it read and lowers the unread count', async () => {
    await page.goto(`${server.url}/account/message`);
    const row = page.getByRole('row', { name: /服务即将到期/ });
    await row.getByRole('img', { name: M.messageUnread }).waitFor();
    await expect(page.getByRole('img', { name: M.messageUnread }).count()).resolves.toBe(3);
    await tableShown(page);
    await screenshot(page, 'message-list', row);

    await row.getByText('服务即将到期').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('成员扩容包').waitFor();
    await settled(page);
    await screenshot(page, 'message-dialog', dialog.getByText('成员扩容包'));
    expect(await page.title()).not.toBe('pwned');
    await expect(dialog.locator('script').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: M.close }).click();
    await expect.poll(() => page.getByRole('img', { name: M.messageUnread }).count()).toBe(2);
    // The user menu's unread count follows.
    const messages = await openUserMenu(page, /消息测试/, new RegExp(M.myMessages));
    await messages.getByText('2').waitFor();
    await page.mouse.move(0, 400);
  });

  it('warns when nothing is selected, marks a selection read, and deletes all after confirmation', async () => {
    await page.getByRole('button', { name: new RegExp(M.messageMarkSelectedRead) }).click();
    await page.getByText(M.selectMessage).waitFor();

    await page.getByRole('row', { name: /工单已回复/ }).getByRole('checkbox').check();
    await page.getByRole('button', { name: new RegExp(M.messageMarkSelectedRead) }).click();
    await settled(page);
    await page.getByRole('dialog', { name: M.confirmMarkRead }).getByRole('button', { name: OK }).click();
    await page.getByText(M.updated).first().waitFor();
    await expect.poll(() => page.getByRole('img', { name: M.messageUnread }).count()).toBe(1);

    await page.getByRole('button', { name: M.messageDeleteAll }).click();
    await settled(page);
    await page.getByRole('dialog', { name: M.confirmDeleteAll }).getByRole('button', { name: OK }).click();
    await page.getByText(M.empty).waitFor();
  });

  it('lists announcements and opens one, whose image opens full size', async () => {
    await page.goto(`${server.url}/account/announcements`);
    await page.getByRole('row', { name: /新增华东POP节点/ }).waitFor();
    await tableShown(page);
    await screenshot(page, 'announcement-list', page.getByRole('row', { name: /新增华东POP节点/ }));
    await page.getByRole('link', { name: '春节期间服务安排' }).click();
    await page.getByRole('heading', { name: '春节期间服务安排' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account/announcements/detail');
    await page.getByRole('img', { name: '值班安排' }).click();
    await page.locator('.ant-image-preview img').waitFor();
    // The preview fades and zooms in; wait until its motion has finished.
    await page.waitForFunction(() => !document.querySelector('[class*="fade-appear"], [class*="fade-enter"], [class*="zoom-appear"], [class*="zoom-enter"]'));
    expect(await page.locator('.ant-image-preview img').getAttribute('src')).toBe(PICTURE);
    await screenshot(page, 'announcement-preview', '.ant-image-preview img');
  });

  it('shows my services', async () => {
    await page.goto(`${server.url}/account/service`);
    const row = page.getByRole('row', { name: /POP流量包/ });
    await row.getByRole('cell', { name: '500' }).waitFor();
    await page.getByRole('row', { name: /成员扩容包/ }).waitFor();
    await tableShown(page);
    await screenshot(page, 'service-list', row.getByRole('cell', { name: '500' }));
  });
});
