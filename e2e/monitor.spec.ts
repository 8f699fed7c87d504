import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { fmt, M, type OutboxEntry } from '@hublink/contract';
import { startWebhookReceiver, type WebhookReceiver } from '../packages/server/test/webhookReceiver';
import { CONTEXT, lastCode, launch, post, postAs, screenshot, screenshotAtWidths, signIn, startServer, trackCaptcha, type Server } from './support';

const OK = /确\s?定|OK/;
/** antd spaces a two-character Chinese label ('测 试'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const SECRET = 'SECe2emonitor0123456789abcdef';
const FAST = { firstMinMs: 50, firstMaxMs: 200, maxMs: 1_000, throttledMinMs: 1_000 };

/**
 * Monitoring alerts in Chromium (issue 14): start monitoring, a contact verified through the mailed
 * link, a DingTalk webhook (a local robot that checks the signature) tested and saved, a device chosen
 * and the configuration saved; then a simulated router connects through the gateway and goes away, and
 * the offline alert arrives in the message centre, the contact's mailbox (the outbox) and the robot.
 * Then (issue 33) two more webhooks with mentions, one refused input, a test send that arrives, and a
 * delivery the robot refused listed as failed and sent again.
 */
describe('monitoring alerts in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let robot: WebhookReceiver;
  let sim: Simulation | undefined;
  const stamp = String(Date.now() % 1_000_000);
  const username = `mon${stamp}`;
  const password = 'secret123';
  const ownerEmail = `owner${stamp}@example.com`;
  const contactEmail = `duty${stamp}@example.com`;
  const router = `monhq${stamp}`;
  const deviceSecret = 'devsecret1';

  const outbox = async (to: string) => {
    const res = await fetch(`${server.url}/api/dev/outbox?to=${encodeURIComponent(to)}`);
    return ((await res.json()) as { data: OutboxEntry[] }).data;
  };

  beforeAll(async () => {
    server = await startServer({ HUBLINK_ALERT_DEBOUNCE_SECONDS: '1', HUBLINK_ALERT_RETRY_SECONDS: '1', HUBLINK_ALERT_ATTEMPTS: '2', HUBLINK_ALERT_GROUP_SECONDS: '0' });
    robot = await startWebhookReceiver(SECRET);
    browser = await launch();
    page = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce' })).newPage();
    // An account registered with its email, so email notifications can be switched on.
    await post(server, '/verify/register', { send_type: 'email', send_value: ownerEmail });
    const code = await lastCode(server, ownerEmail);
    await post(server, '/account/register', { nickname: '监控测试', username, password, newPassword: password, code, type: 'email', verify: ownerEmail });
    await signIn(page, server, trackCaptcha(page, server), username, password);
    await postAs(server, page, '/router/add', { router_type: 1, username: router, password: deviceSecret, note: '上海总部' });
  });

  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await robot?.close();
    await server?.close();
  });

  it('starts monitoring from the intro after confirmation', async () => {
    await page.goto(`${server.url}/monitor/setting`);
    const start = page.getByRole('button', { name: new RegExp(M.monitorStart) });
    await screenshotAtWidths(page, 'monitor-intro', start);
    await start.click();
    await page.getByText(M.monitorStartConfirm).waitFor();
    await page.getByRole('button', { name: OK }).click();
    await page.getByText(M.monitorStarted).first().waitFor();
    await page.getByText(M.monitorChannels).waitFor();
  });

  it('adds a contact and verifies it through the link in its mail', async () => {
    await page.getByRole('button', { name: new RegExp(M.monitorContacts) }).click();
    const contacts = page.getByRole('dialog', { name: M.monitorContacts });
    await contacts.getByRole('button', { name: new RegExp(M.contactCreate) }).click();
    const form = page.getByRole('dialog', { name: M.contactCreate });
    await form.getByPlaceholder(M.contactNameRequired).fill('值班工程师');
    await form.getByPlaceholder(M.contactEmailRequired).fill(contactEmail);
    await form.getByRole('button', { name: OK }).click();
    const row = contacts.getByRole('row', { name: new RegExp(contactEmail) });
    await row.getByText(M.contactUnverified).waitFor();

    await row.getByRole('button', { name: M.contactSendVerify }).click();
    await page.getByText(M.contactSendConfirm).waitFor();
    await page.getByRole('button', { name: OK }).last().click();
    await row.getByRole('button', { name: /秒后重发/ }).waitFor();
    await expect.poll(async () => (await outbox(contactEmail)).length).toBeGreaterThan(0);
    const link = /https?:\/\/\S+\/validate\/email\?s=[\w%-]+/.exec((await outbox(contactEmail))[0]!.body)?.[0];
    expect(link).toBeDefined();

    const mailbox = await page.context().newPage();
    await mailbox.goto(link!);
    await mailbox.getByText(M.emailValidated).waitFor();
    await mailbox.close();

    await contacts.getByRole('button', { name: M.close }).click();
    // A second contact, not verified yet, beside the first.
    await postAs(server, page, '/contacts/create', { name: '运维备用', email: `backup${stamp}@example.com` });
    await page.getByRole('button', { name: new RegExp(M.monitorContacts) }).click();
    await contacts.getByRole('row', { name: new RegExp(contactEmail) }).getByText(M.contactVerified).waitFor();
    await screenshotAtWidths(page, 'monitor-contacts', contacts.getByText(M.contactVerified));
    await contacts.getByRole('button', { name: M.close }).click();
  });

  it('tests the DingTalk webhook (the robot checks the signature) and saves it', async () => {
    await page.getByRole('button', { name: new RegExp(M.monitorWebhookConfig) }).click();
    const dialog = page.getByRole('dialog', { name: M.monitorWebhookConfig });
    await dialog.getByText(M.webhookTypeDingtalk).waitFor();
    // A cloud's metadata address is refused when saved, under the field (issue 32). The test servers
    // allow private targets (the robot is on 127.0.0.1): this server refuses them for the moment.
    server.ctx.config.allowPrivateTargets = false;
    try {
      await dialog.getByPlaceholder(M.webhookUrlPlaceholder).fill('http://169.254.169.254/latest/meta-data');
      await dialog.getByPlaceholder(M.webhookSecretPlaceholder).fill(SECRET);
      await dialog.getByRole('button', { name: label(M.save) }).click();
      await dialog.getByText(M.webhookUrlPrivate).waitFor();
      await screenshotAtWidths(page, 'monitor-webhook-private', dialog.getByText(M.webhookUrlPrivate));
      expect(await server.ctx.db.selectFrom('monitor_hook').select('url').execute()).toEqual([]);
    } finally {
      server.ctx.config.allowPrivateTargets = true;
    }
    await dialog.getByPlaceholder(M.webhookUrlPlaceholder).fill(`${robot.url}/dingtalk?access_token=e2e`);
    await dialog.getByPlaceholder(M.webhookSecretPlaceholder).fill(SECRET);
    await screenshotAtWidths(page, 'monitor-webhook', dialog.getByPlaceholder(M.webhookSecretPlaceholder));
    await dialog.getByRole('button', { name: label(M.webhookTest) }).click();
    await page.getByText(M.webhookTestConfirm).waitFor();
    await page.getByRole('button', { name: OK }).last().click();
    await page.getByText(M.webhookTestOk).first().waitFor();
    expect(robot.received.at(-1)).toMatchObject({ path: '/dingtalk', valid: true });
    await dialog.getByRole('button', { name: label(M.save) }).click();
    await page.getByText(M.webhookSaved).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('switches email and webhook on, chooses the router and saves after confirmation', async () => {
    await page.getByRole('switch', { name: M.monitorEmail }).click();
    const webhook = page.getByRole('switch', { name: M.monitorWebhook });
    await webhook.click();
    await expect.poll(() => webhook.getAttribute('aria-checked')).toBe('true');
    await page.getByRole('row', { name: new RegExp(router) }).getByRole('checkbox').check();
    await page.getByText(fmt(M.monitorRoutersSelected, { n: 1, total: 1 })).waitFor();
    await page.getByRole('button', { name: M.monitorSave }).click();
    await page.getByText(M.monitorSaveConfirm).waitFor();
    await page.getByRole('button', { name: OK }).last().click();
    await page.getByText(M.saved).first().waitFor();
    await page.reload();
    await page.getByRole('row', { name: new RegExp(router) }).getByRole('checkbox', { checked: true }).waitFor();
    await screenshotAtWidths(page, 'monitor-enabled', page.getByRole('row', { name: new RegExp(router) }));
  });

  it('alerts when the router goes offline: message centre, mailbox and webhook', async () => {
    const member = () => server.ctx.db.selectFrom('member').select(['id', 'online_status']).where('router_key', '=', router).executeTakeFirstOrThrow();
    sim = simulate({ url: server.url, members: [{ kind: 'router', router_name: router, secret: deviceSecret }], startSpreadMs: 0, backoff: FAST });
    await expect.poll(async () => (await member()).online_status).toBe(1);
    await sim.stop();
    sim = undefined;
    const title = fmt(M.alertTitle, { kind: M.alertKindRouterOffline, name: router });
    await expect
      .poll(async () => (await server.ctx.db.selectFrom('message').select('id').where('title', '=', title).execute()).length)
      .toBe(1);
    await page.goto(`${server.url}/account/message`);
    await page.getByRole('row', { name: new RegExp(title) }).waitFor();
    await screenshot(page, 'monitor-alert-message', page.getByRole('row', { name: new RegExp(title) }));
    await expect.poll(() => robot.received.filter((h) => h.valid && JSON.stringify(h.body).includes(title)).length).toBe(1);
    await expect.poll(async () => (await outbox(contactEmail)).some((m) => m.subject === title)).toBe(true);
    await expect.poll(async () => (await outbox(ownerEmail)).some((m) => m.subject === title)).toBe(true);
  });

  it('adds two webhooks with mentions (a bad mobile refused) and tests one at the robot', async () => {
    await page.goto(`${server.url}/monitor/setting`);
    const card = page.locator('.ant-card').filter({ hasText: M.webhooksHint });
    await card.getByRole('row', { name: new RegExp(M.webhookDefaultName) }).waitFor();

    await card.getByRole('button', { name: new RegExp(M.webhookCreate) }).click();
    let form = page.getByRole('dialog', { name: M.webhookCreate });
    await form.getByPlaceholder(M.webhookNamePlaceholder).fill('值班钉钉群');
    await form.getByPlaceholder(M.webhookUrlPlaceholder).fill(`${robot.url}/dingtalk?access_token=duty`);
    await form.getByPlaceholder(M.webhookSecretPlaceholder).fill(SECRET);
    const mobiles = form.getByRole('combobox', { name: M.webhookAtMobiles });
    await mobiles.fill('1380013800');
    await mobiles.press('Enter');
    await form.getByRole('button', { name: OK }).click();
    const bad = fmt(M.webhookMobileInvalid, { value: '1380013800' });
    await form.getByText(bad).waitFor();
    await screenshotAtWidths(page, 'monitor-hook-refused', form.getByText(bad));
    expect(await server.ctx.db.selectFrom('monitor_hook').select('name').where('name', '=', '值班钉钉群').execute()).toEqual([]);
    await mobiles.press('Backspace');
    await mobiles.fill('13800138000');
    await mobiles.press('Enter');
    const users = form.getByRole('combobox', { name: M.webhookAtUserIds });
    await users.fill('duty01');
    await users.press('Enter');
    await form.getByRole('button', { name: OK }).click();
    await form.waitFor({ state: 'hidden' });
    await card.getByRole('row', { name: /值班钉钉群/ }).getByText('@13800138000 @duty01').waitFor();

    await card.getByRole('button', { name: new RegExp(M.webhookCreate) }).click();
    form = page.getByRole('dialog', { name: M.webhookCreate });
    await form.getByPlaceholder(M.webhookNamePlaceholder).fill('企业微信值班');
    await form.getByRole('combobox', { name: M.webhookType }).click();
    await page.getByTitle(M.webhookTypeWecom).click();
    await form.getByPlaceholder(M.webhookUrlPlaceholder).fill(`${robot.url}/wecom`);
    const wecomMobiles = form.getByRole('combobox', { name: M.webhookAtMobiles });
    await wecomMobiles.fill('13900139000');
    await wecomMobiles.press('Enter');
    await form.getByRole('switch', { name: M.webhookAtAll }).click();
    await form.getByRole('button', { name: OK }).click();
    await form.waitFor({ state: 'hidden' });
    const wecomRow = card.getByRole('row', { name: /企业微信值班/ });
    await wecomRow.getByText(`@13900139000 @${M.webhookMentionAll}`).waitFor();

    const before = robot.received.length;
    await wecomRow.getByRole('button', { name: label(M.webhookTest) }).click();
    await page.getByText(M.webhookTestConfirm).waitFor();
    await page.getByRole('button', { name: OK }).last().click();
    await page.getByText(M.webhookTestOk).first().waitFor();
    const got = robot.received.slice(before).find((h) => h.path === '/wecom');
    expect(got).toMatchObject({ valid: true, body: { msgtype: 'text', text: { mentioned_mobile_list: ['13900139000'], mentioned_list: ['@all'] } } });
    await screenshotAtWidths(page, 'monitor-webhooks', wecomRow);
  });

  it("lists a delivery the robot refused as failed with the robot's answer, and resends it", async () => {
    const member = () => server.ctx.db.selectFrom('member').select(['id', 'online_status']).where('router_key', '=', router).executeTakeFirstOrThrow();
    const duty = await server.ctx.db.selectFrom('monitor_hook').select('uuid').where('name', '=', '值班钉钉群').executeTakeFirstOrThrow();
    const dutyDeliveries = () => server.ctx.db.selectFrom('monitor_delivery').select(['id', 'status']).where('target', '=', duty.uuid).execute();
    // The DingTalk robots answer "too fast" to every attempt; the router comes back: a recovery alert.
    robot.failNext('/dingtalk', 1000);
    sim = simulate({ url: server.url, members: [{ kind: 'router', router_name: router, secret: deviceSecret }], startSpreadMs: 0, backoff: FAST });
    await expect.poll(async () => (await member()).online_status).toBe(1);
    await expect.poll(async () => (await dutyDeliveries()).map((d) => d.status), { timeout: 60_000 }).toEqual(['failed']);
    robot.failNext('/dingtalk', 0);

    await page.reload();
    const card = page.locator('.ant-card').filter({ hasText: M.webhooksHint });
    const row = card.getByRole('row', { name: /值班钉钉群/ });
    await row.getByText(M.deliveryStatusFailed).waitFor();
    await row.getByRole('button', { name: M.webhookDeliveries }).click();
    const drawer = page.getByRole('dialog', { name: fmt(M.deliveriesTitle, { name: '值班钉钉群' }) });
    const answer = fmt(M.webhookFailProvider, { provider: M.webhookTypeDingtalk, code: '130101', msg: 'send too fast, exceed 20 times per minute' });
    await drawer.getByText(answer).waitFor();
    await drawer.getByText(M.deliveryStatusFailed).waitFor();
    await screenshotAtWidths(page, 'monitor-deliveries', drawer.getByText(answer));

    const sent = robot.received.length;
    await drawer.getByRole('button', { name: label(M.deliveryResend) }).click();
    await page.getByText(M.deliveryResendConfirm).waitFor();
    await page.getByRole('button', { name: OK }).last().click();
    await page.getByText(M.deliveryResent).first().waitFor();
    await expect.poll(async () => (await dutyDeliveries()).map((d) => d.status), { timeout: 30_000 }).toEqual(['sent']);
    expect(robot.received.slice(sent).some((h) => h.path === '/dingtalk' && h.valid && h.query.access_token === 'duty')).toBe(true);
    // The drawer shows it sent once reopened.
    await drawer.getByRole('button', { name: /Close|关闭/ }).first().click();
    await row.getByRole('button', { name: M.webhookDeliveries }).click();
    await drawer.getByText(M.deliveryStatusSent).waitFor();
  });
});
