import {
  CODE,
  createApiToken,
  createContact,
  createWebhook,
  deleteWebhook,
  editWebhook,
  fmt,
  LIMITS,
  listContacts,
  listDeliveries,
  listWebhooks,
  M,
  monitorConfig,
  resendDelivery,
  SECRET_MASK,
  testWebhook,
  webhookConfig,
  webhookDelete,
  webhookSetting,
  type BodyOf,
} from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhookReceiver';
import { raiseAlert } from './alerts';
import { expectRefused, freshEmail, monitorOn } from './fixtures';

const SECRET = 'SEC0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff';
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
});
afterAll(() => receiver.close());

type Body = BodyOf<typeof createWebhook>;
const robot = (type: string) => `${receiver.url}/${type}${type === 'dingtalk' ? '?access_token=tok123' : ''}`;

describeEachDatabase('several webhooks per tenant (/webhooks/*)', (t) => {
  const refused = (call: () => Promise<{ code: number; msg: string }>, code: number, msg: string) => expectRefused(t(), call, code, msg);
  const hooksOf = async (token: string) => (await t().call(listWebhooks, { token })).data!;
  const onDuty: Body = {
    name: '运维值班群',
    type: 'dingtalk',
    get url() {
      return robot('dingtalk');
    },
    secret: SECRET,
    kinds: ['router_offline', 'router_online'],
    at_mobiles: ['13800138000'],
    at_user_ids: ['manager01'],
    at_all: 0,
  };
  const feishu: Body = { name: '飞书告警', type: 'feishu', get url() { return robot('feishu'); }, secret: SECRET, kinds: ['service_expired'], at_mobiles: [], at_user_ids: ['ou_7d8a6e6df7621556ce0d21922b676706'], at_all: 1 };
  const wecom: Body = { name: '企业微信', type: 'wecom', get url() { return robot('wecom'); }, secret: '', kinds: ['router_offline'], at_mobiles: ['13900139000'], at_user_ids: [], at_all: 1 };

  it('keeps several webhooks, the oldest the default of the spec calls, each test signed and mentioning as its provider documents', async () => {
    const a = await newAccount(t());
    const made: string[] = [];
    for (const body of [onDuty, feishu, wecom]) {
      const res = await t().call(createWebhook, { token: a.token, body });
      expect(res).toMatchObject({ code: 200, msg: M.webhookSaved });
      made.push(res.data!.uuid);
    }
    const hooks = await hooksOf(a.token);
    expect(hooks.map((h) => [h.name, h.type, h.kinds, h.is_default, h.secret])).toEqual([
      ['运维值班群', 'dingtalk', ['router_online', 'router_offline'], 1, SECRET_MASK],
      ['飞书告警', 'feishu', ['service_expired'], 0, SECRET_MASK],
      ['企业微信', 'wecom', ['router_offline'], 0, ''],
    ]);
    expect(hooks[0]).toMatchObject({ url: robot('dingtalk'), at_mobiles: ['13800138000'], at_user_ids: ['manager01'], at_all: 0, last_status: '' });
    // The spec's calls see the default one.
    expect((await t().call(webhookConfig, { token: a.token })).data).toEqual({ type: 'dingtalk', url: robot('dingtalk'), secret: SECRET_MASK });

    // DingTalk: `at` with the mobiles and user ids, and each "@…" in the text.
    let sent = receiver.received.length;
    expect(await t().call(testWebhook, { token: a.token, body: { uuid: made[0]! } })).toMatchObject({ code: 200, msg: M.webhookTestOk });
    const ding = receiver.received[sent]!;
    expect(ding).toMatchObject({ path: '/dingtalk', valid: true, body: { at: { atMobiles: ['13800138000'], atUserIds: ['manager01'], isAtAll: false } } });
    expect((ding.body.markdown as { text: string }).text).toContain('@13800138000 @manager01');
    // Feishu: <at user_id="…"> in the text, and everyone.
    sent = receiver.received.length;
    expect((await t().call(testWebhook, { token: a.token, body: { uuid: made[1]! } })).code).toBe(200);
    const fs = receiver.received[sent]!;
    expect(fs).toMatchObject({ path: '/feishu', valid: true });
    expect((fs.body.content as { text: string }).text).toContain(`<at user_id="ou_7d8a6e6df7621556ce0d21922b676706"></at> <at user_id="all">${M.webhookMentionAll}</at>`);
    // WeCom: a text message with the mobiles and "@all".
    sent = receiver.received.length;
    expect((await t().call(testWebhook, { token: a.token, body: { uuid: made[2]! } })).code).toBe(200);
    expect(receiver.received[sent]).toMatchObject({
      path: '/wecom',
      valid: true,
      body: { msgtype: 'text', text: { mentioned_list: ['@all'], mentioned_mobile_list: ['13900139000'] } },
    });

    // A wrong secret is refused with the provider's answer.
    await t().call(editWebhook, { token: a.token, body: { ...feishu, uuid: made[1]!, secret: 'wrong' } });
    expect(await t().call(testWebhook, { token: a.token, body: { uuid: made[1]! } })).toMatchObject({
      code: CODE.invalid,
      msg: fmt(M.webhookTestFailed, { reason: fmt(M.webhookFailProvider, { provider: '飞书', code: '19021', msg: 'sign match fail or timestamp is not within one hour from current time' }) }),
    });
    // Sending the mask back keeps the stored secret.
    await t().call(editWebhook, { token: a.token, body: { ...feishu, uuid: made[1]!, secret: SECRET } });
    await t().call(editWebhook, { token: a.token, body: { ...feishu, uuid: made[1]!, name: '飞书告警2', secret: SECRET_MASK } });
    expect((await t().call(testWebhook, { token: a.token, body: { uuid: made[1]! } })).code).toBe(200);
    expect((await hooksOf(a.token))[1]!.name).toBe('飞书告警2');

    // /webhook/setting changes the default's type, URL and secret and keeps its name, kinds and mentions.
    await t().call(webhookSetting, { token: a.token, body: { type: 'other', url: robot('other'), secret: SECRET } });
    expect((await hooksOf(a.token))[0]).toMatchObject({ name: '运维值班群', type: 'other', kinds: ['router_online', 'router_offline'] });
    // /webhook/delete removes the default; the next oldest becomes it and webhooks stay on.
    await monitorOn(t(), a.token, { webhook_confirm: 1, router_offline: 1 });
    expect((await t().call(webhookDelete, { token: a.token })).code).toBe(200);
    expect((await hooksOf(a.token)).map((h) => [h.name, h.is_default])).toEqual([
      ['飞书告警2', 1],
      ['企业微信', 0],
    ]);
    expect((await t().call(monitorConfig, { token: a.token })).data!.webhook_confirm).toBe(1);
    await t().call(deleteWebhook, { token: a.token, body: { uuid: made[1]! } });
    expect(await t().call(deleteWebhook, { token: a.token, body: { uuid: made[2]! } })).toMatchObject({ code: 200, msg: M.deleted });
    // The last one gone, webhook notifications are off.
    expect((await t().call(monitorConfig, { token: a.token })).data!.webhook_confirm).toBe(0);
    await refused(() => t().call(deleteWebhook, { token: a.token, body: { uuid: made[2]! } }), CODE.notFound, M.webhookNotFound);
  });

  it.each([
    ['a mobile that is not one', { at_mobiles: ['1380013800'] }, fmt(M.webhookMobileInvalid, { value: '1380013800' })],
    ['a mobile twice', { at_mobiles: ['13800138000', '13800138000'] }, fmt(M.webhookMentionDuplicate, { value: '13800138000' })],
    ['a user id with a space', { at_user_ids: ['a b'] }, fmt(M.webhookUserIdInvalid, { value: 'a b' })],
    ['too many mentions', { at_user_ids: Array.from({ length: 21 }, (_, i) => `u${i}`) }, fmt(M.webhookMentionsTooMany, { n: LIMITS.webhookMentionsMax })],
    ['Feishu mentions by mobile', { type: 'feishu', at_mobiles: ['13800138000'] }, M.webhookFeishuNoMobiles],
    ['mentions for "other"', { type: 'other', at_mobiles: [], at_all: 1 }, M.webhookOtherNoMentions],
    ['no kinds', { kinds: [] }, M.webhookKindsRequired],
    ['an unknown kind', { kinds: ['router_reboot'] }, M.validationFailed],
    ['no name', { name: ' ' }, M.webhookNameRequired],
    ['a long name', { name: 'n'.repeat(33) }, fmt(M.webhookNameTooLong, { n: 32 })],
    ['an ftp URL', { url: 'ftp://example.com/x' }, M.webhookUrlInvalid],
  ])('refuses a webhook with %s, storing nothing', async (_n, over, msg) => {
    const a = await newAccount(t());
    await refused(() => t().call(createWebhook, { token: a.token, body: { ...onDuty, ...over } as Body }), CODE.invalid, msg);
    const uuid = (await t().call(createWebhook, { token: a.token, body: onDuty })).data!.uuid;
    await refused(() => t().call(editWebhook, { token: a.token, body: { ...onDuty, ...over, uuid } as Body & { uuid: string } }), CODE.invalid, msg);
  });

  it('refuses a private URL when saved and when tested, a taken name, and an eleventh webhook', async () => {
    const a = await newAccount(t());
    const uuid = (await t().call(createWebhook, { token: a.token, body: onDuty })).data!.uuid;
    const saved = t().ctx.config.allowPrivateTargets;
    t().ctx.config.allowPrivateTargets = false;
    try {
      await refused(() => t().call(createWebhook, { token: a.token, body: { ...onDuty, name: '内网', url: 'http://192.168.1.10/hook' } }), CODE.invalid, M.webhookUrlPrivate);
      // Stored while allowed, it is judged again when used: the test sends nothing.
      const sent = receiver.received.length;
      await refused(() => t().call(testWebhook, { token: a.token, body: { uuid } }), CODE.invalid, M.webhookUrlPrivate);
      expect(receiver.received.length).toBe(sent);
    } finally {
      t().ctx.config.allowPrivateTargets = saved;
    }
    await refused(() => t().call(createWebhook, { token: a.token, body: onDuty }), CODE.invalid, M.webhookNameTaken);
    for (let i = 2; i <= LIMITS.webhooksMax; i++) expect((await t().call(createWebhook, { token: a.token, body: { ...onDuty, name: `群${i}` } })).code).toBe(200);
    await refused(() => t().call(createWebhook, { token: a.token, body: { ...onDuty, name: '第十一个' } }), CODE.invalid, fmt(M.webhooksFull, { n: LIMITS.webhooksMax }));
  });

  it('masks URLs, mentioned mobiles and contacts for whoever may only view monitoring, and keeps tenants apart', async () => {
    const a = await newAccount(t());
    const uuid = (await t().call(createWebhook, { token: a.token, body: onDuty })).data!.uuid;
    const email = freshEmail('duty');
    await t().call(createContact, { token: a.token, body: { name: '值班', email } });
    const viewer = await ramToken(t(), a.account.id, { ...FULL_ROLE, monitor: { view: 1, create: 1, edit: 0, delete: 1 } });
    const reader = (await t().call(createApiToken, { token: a.token, body: { name: '只读', scope: 'read', expires_days: 30 } })).data!.token;
    for (const token of [viewer, reader]) {
      const [hook] = await hooksOf(token);
      expect(hook).toMatchObject({ url: `${new URL(receiver.url).origin}/${SECRET_MASK}`, secret: SECRET_MASK, at_mobiles: ['138****8000'] });
      expect(JSON.stringify(hook)).not.toContain('tok123');
      expect((await t().call(listContacts, { token, query: {} })).data![0]!.email).toBe(`d***@example.com`);
    }
    const editor = await ramToken(t(), a.account.id, FULL_ROLE);
    expect((await hooksOf(editor))[0]).toMatchObject({ url: robot('dingtalk'), at_mobiles: ['13800138000'] });
    expect((await t().call(listContacts, { token: editor, query: {} })).data![0]!.email).toBe(email);
    // A viewer changes nothing.
    const sent = receiver.received.length;
    for (const call of [
      () => t().call(createWebhook, { token: viewer, body: { ...onDuty, name: '另一个' } }),
      () => t().call(editWebhook, { token: viewer, body: { ...onDuty, uuid } }),
      () => t().call(deleteWebhook, { token: viewer, body: { uuid } }),
      () => t().call(testWebhook, { token: viewer, body: { uuid } }),
      () => t().call(resendDelivery, { token: viewer, body: { id: 1 } }),
    ]) {
      await refused(call, CODE.forbidden, M.deniedPermission);
    }
    expect(receiver.received.length).toBe(sent);
    // Another tenant neither sees nor touches it.
    const b = await newAccount(t());
    expect(await hooksOf(b.token)).toEqual([]);
    await refused(() => t().call(testWebhook, { token: b.token, body: { uuid } }), CODE.notFound, M.webhookNotFound);
    await refused(() => t().call(editWebhook, { token: b.token, body: { ...onDuty, uuid } }), CODE.notFound, M.webhookNotFound);
    await refused(() => t().call(deleteWebhook, { token: b.token, body: { uuid } }), CODE.notFound, M.webhookNotFound);
  });

  it('gives each alert to the webhooks that take its kind, lists the deliveries per webhook and resends a failed one', async () => {
    const a = await newAccount(t());
    const ding = (await t().call(createWebhook, { token: a.token, body: onDuty })).data!.uuid;
    const fs = (await t().call(createWebhook, { token: a.token, body: feishu })).data!.uuid;
    const wc = (await t().call(createWebhook, { token: a.token, body: wecom })).data!.uuid;
    await monitorOn(t(), a.token, { webhook_confirm: 1, router_offline: 1 });
    const alertId = await raiseAlert(t().ctx, { tenantId: a.account.id, kind: 'router_offline', dedupeKey: `offline:x:${Date.now()}`, subject: 'gw-01', memberId: null, routerName: 'gw-01', text: '设备 gw-01 离线。', at: Date.now() });
    const deliveries = await t().db.selectFrom('monitor_delivery').selectAll().where('alert_id', '=', alertId!).where('channel', '=', 'webhook').orderBy('id').execute();
    // router_offline: the DingTalk and WeCom webhooks take it, the Feishu one (service expiry only) does not.
    expect(deliveries.map((d) => d.target)).toEqual([ding, wc]);
    expect(deliveries.map((d) => d.target)).not.toContain(fs);

    // The robot gave up on the WeCom one: failed, with its answer.
    const error = fmt(M.webhookFailProvider, { provider: '企业微信', code: '45009', msg: 'api freq out of limit' });
    await t().db.updateTable('monitor_delivery').set({ status: 'failed', attempts: 3, last_error: error, done_at: Date.now() }).where('id', '=', deliveries[1]!.id).execute();
    const page = await t().call(listDeliveries, { token: a.token, query: { uuid: wc } });
    expect(page).toMatchObject({ code: 200, count: 1 });
    expect(page.data![0]).toMatchObject({ id: deliveries[1]!.id, channel: 'webhook', target: '企业微信', webhook_uuid: wc, status: 'failed', attempts: 3, error });
    expect((await hooksOf(a.token)).find((h) => h.uuid === wc)).toMatchObject({ last_status: 'failed', last_error: error });
    expect((await t().call(listDeliveries, { token: a.token, query: { channel: 'webhook', status: 'failed' } })).count).toBe(1);
    expect((await t().call(listDeliveries, { token: a.token, query: { uuid: fs } })).count).toBe(0);

    // A delivery on its way cannot be resent; a failed one goes back to the queue with its attempts afresh.
    await refused(() => t().call(resendDelivery, { token: a.token, body: { id: deliveries[0]!.id } }), CODE.invalid, M.deliveryNotFailed);
    expect(await t().call(resendDelivery, { token: a.token, body: { id: deliveries[1]!.id } })).toMatchObject({ code: 200, msg: M.deliveryResent });
    expect(await t().db.selectFrom('monitor_delivery').select(['status', 'attempts', 'last_error']).where('id', '=', deliveries[1]!.id).executeTakeFirstOrThrow()).toEqual({ status: 'pending', attempts: 0, last_error: error });
    // Not another tenant's.
    const b = await newAccount(t());
    await refused(() => t().call(resendDelivery, { token: b.token, body: { id: deliveries[1]!.id } }), CODE.notFound, M.deliveryNotFound);
    expect((await t().call(listDeliveries, { token: b.token, query: {} })).count).toBe(0);
  });
});
