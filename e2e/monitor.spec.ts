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
    server = await startServer({ HUBLINK_ALERT_DEBOUNCE_SECONDS: '1', HUBLINK_ALERT_RETRY_SECONDS: '1' });
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
      expect(await server.ctx.db.selectFrom('monitor_webhook').select('url').execute()).toEqual([]);
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
});
