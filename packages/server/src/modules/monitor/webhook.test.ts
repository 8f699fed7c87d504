import { CODE, createApiToken, fmt, M, monitorConfig, monitorSetting, SECRET_MASK, webhookConfig, webhookDelete, webhookSetting, webhookTest, type WebhookType } from '@hublink/contract';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhookReceiver';
import { expectRefused, monitorOn } from './fixtures';

const SECRET = 'SECa1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2';
let receiver: WebhookReceiver;
/** A server that takes connections and never answers (the outbound time limit). */
let silent: http.Server;
let silentUrl: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  silent = http.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await receiver.close();
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

/** The receiver's robot of a type; DingTalk's URL carries its access_token, as a real robot's does. */
const robot = (type: WebhookType) => `${receiver.url}/${type}${type === 'dingtalk' ? '?access_token=abc' : ''}`;
const failed = (reason: string) => fmt(M.webhookTestFailed, { reason });

/** Hosts no tenant may name, in the spellings a probe used: loopback, private, link-local, metadata, CGNAT, unique-local, unspecified, IPv4-mapped, local names. */
const PRIVATE_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://2130706433/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.1/hook',
  'http://127.1:8080/hook',
  'http://0/hook',
  'https://127.0.0.1./hook',
  'http://[::ffff:10.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[fd00:ec2::254]/hook',
  'http://[fe80::1]/hook',
  'http://10.0.0.1/hook',
  'http://172.16.0.1/hook',
  'http://192.168.1.1/hook',
  'http://100.100.100.200/latest/meta-data/',
  'http://LOCALHOST:8080/hook',
  'http://api.localhost/hook',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/computeMetadata/v1/',
];

describeEachDatabase('webhook (/webhook/*)', (t) => {
  let a: Awaited<ReturnType<typeof newAccount>>;
  const refused = (call: () => Promise<{ code: number; msg: string }>, code: number, msg: string) => expectRefused(t(), call, code, msg);
  /** Runs `work` as a server whose operator does not allow private targets (the tests' own receivers are on 127.0.0.1). */
  async function privateTargetsDenied(work: () => Promise<void>) {
    const saved = t().ctx.config.allowPrivateTargets;
    t().ctx.config.allowPrivateTargets = false;
    try {
      await work();
    } finally {
      t().ctx.config.allowPrivateTargets = saved;
    }
  }

  beforeAll(async () => {
    a = await newAccount(t());
  });

  it('has none at first, then stores one with its secret sealed and answered masked', async () => {
    expect(await t().call(webhookConfig, { token: a.token })).toMatchObject({ code: 200, data: null });
    expect(await t().call(webhookSetting, { token: a.token, body: { type: 'dingtalk', url: robot('dingtalk'), secret: SECRET } })).toMatchObject({ code: 200, msg: M.webhookSaved });
    expect((await t().call(webhookConfig, { token: a.token })).data).toEqual({ type: 'dingtalk', url: robot('dingtalk'), secret: SECRET_MASK });
    const row = await t().db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(SECRET);
    // Sending the mask back keeps the stored secret; the test below signs with it.
    expect((await t().call(webhookSetting, { token: a.token, body: { type: 'dingtalk', url: robot('dingtalk'), secret: SECRET_MASK } })).code).toBe(200);
    expect(await t().call(webhookTest, { token: a.token, body: { type: 'dingtalk', url: robot('dingtalk'), secret: SECRET_MASK } })).toMatchObject({ code: 200, msg: M.webhookTestOk });
    expect(receiver.received.at(-1)).toMatchObject({ path: '/dingtalk', valid: true });
  });

  it('stores no secret for WeCom, and none when it is left empty', async () => {
    const b = await newAccount(t());
    await t().call(webhookSetting, { token: b.token, body: { type: 'wecom', url: robot('wecom'), secret: 'ignored' } });
    expect((await t().call(webhookConfig, { token: b.token })).data).toEqual({ type: 'wecom', url: robot('wecom'), secret: '' });
    await t().call(webhookSetting, { token: b.token, body: { type: 'feishu', url: robot('feishu') } });
    expect((await t().call(webhookConfig, { token: b.token })).data).toEqual({ type: 'feishu', url: robot('feishu'), secret: '' });
  });

  it.each(['dingtalk', 'feishu', 'other'] as const)('tests a %s webhook: signed as its provider checks, and refused with its answer when the secret is wrong', async (type) => {
    const sent = receiver.received.length;
    expect(await t().call(webhookTest, { token: a.token, body: { type, url: robot(type), secret: SECRET } })).toMatchObject({ code: 200, msg: M.webhookTestOk });
    const got = receiver.received[sent]!;
    expect(got).toMatchObject({ path: `/${type}`, valid: true });
    expect(JSON.stringify(got.body)).toContain(M.webhookTestTitle);
    const wrong = await t().call(webhookTest, { token: a.token, body: { type, url: robot(type), secret: 'wrong-secret' } });
    const reason =
      type === 'dingtalk'
        ? fmt(M.webhookFailProvider, { provider: '钉钉', code: '310000', msg: 'sign not match' })
        : type === 'feishu'
          ? fmt(M.webhookFailProvider, { provider: '飞书', code: '19021', msg: 'sign match fail or timestamp is not within one hour from current time' })
          : fmt(M.webhookFailHttp, { status: 401 });
    expect(wrong).toMatchObject({ code: CODE.invalid, msg: failed(reason) });
  });

  it('tests a WeCom webhook (unsigned markdown)', async () => {
    const sent = receiver.received.length;
    expect(await t().call(webhookTest, { token: a.token, body: { type: 'wecom', url: robot('wecom'), secret: 'unused' } })).toMatchObject({ code: 200 });
    expect(receiver.received[sent]).toMatchObject({ path: '/wecom', valid: true, query: {} });
  });

  it('says why a test could not reach the webhook', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await t().call(webhookTest, { token: a.token, body: { type: 'other', url: `http://127.0.0.1:${port}/x` } })).toMatchObject({ code: CODE.invalid, msg: failed(M.webhookFailConnect) });
    expect(await t().call(webhookTest, { token: a.token, body: { type: 'dingtalk', url: `${receiver.url}/nowhere` } })).toMatchObject({ code: CODE.invalid, msg: failed(fmt(M.webhookFailHttp, { status: 404 })) });
    // A URL the save would refuse is not tried either; a name is judged on what it resolves to when sent.
    await privateTargetsDenied(async () => {
      expect(await t().call(webhookTest, { token: a.token, body: { type: 'wecom', url: robot('wecom') } })).toMatchObject({ code: CODE.invalid, msg: M.webhookUrlPrivate });
      expect(await t().call(webhookTest, { token: a.token, body: { type: 'other', url: 'https://no-such-host.invalid/hook' } })).toMatchObject({ code: CODE.invalid, msg: failed(M.webhookFailDns) });
    });
  });

  it.each(PRIVATE_URLS)('refuses to save or test a webhook at %s (not a public host), storing and sending nothing', async (url) => {
    const owner = await newAccount(t());
    const kept = { type: 'dingtalk' as const, url: 'https://oapi.dingtalk.com/robot/send?access_token=kept', secret: '' };
    await privateTargetsDenied(async () => {
      // A name is taken at save: what it resolves to is judged when a message is sent.
      expect(await t().call(webhookSetting, { token: owner.token, body: kept })).toMatchObject({ code: 200, msg: M.webhookSaved });
      const sent = receiver.received.length;
      for (const type of ['dingtalk', 'other'] as const) {
        await refused(() => t().call(webhookSetting, { token: owner.token, body: { type, url, secret: SECRET } }), CODE.invalid, M.webhookUrlPrivate);
        await refused(() => t().call(webhookTest, { token: owner.token, body: { type, url, secret: SECRET } }), CODE.invalid, M.webhookUrlPrivate);
      }
      expect(receiver.received.length).toBe(sent);
    });
    expect((await t().call(webhookConfig, { token: owner.token })).data).toEqual(kept);
    // The operator's HUBLINK_ALLOW_PRIVATE_TARGETS=1 lets a tenant keep one.
    expect(await t().call(webhookSetting, { token: owner.token, body: { type: 'other', url } })).toMatchObject({ code: 200, msg: M.webhookSaved });
  });

  it('gives up on a webhook that does not answer within the test time limit', async () => {
    expect(await t().call(webhookTest, { token: a.token, body: { type: 'other', url: silentUrl } })).toMatchObject({ code: CODE.invalid, msg: failed(M.webhookFailTimeout) });
  });

  it.each([
    ['no type', { url: 'https://example.com/h' }, '请输入类型'],
    ['an unknown type', { type: 'slack', url: 'https://example.com/h' }, M.webhookTypeRequired],
    ['no url', { type: 'dingtalk' }, M.webhookUrlRequired],
    ['a blank url', { type: 'dingtalk', url: ' ' }, M.webhookUrlRequired],
    ['an ftp url', { type: 'dingtalk', url: 'ftp://example.com/h' }, M.webhookUrlInvalid],
    ['a relative url', { type: 'dingtalk', url: '/robot/send' }, M.webhookUrlInvalid],
    ['credentials in the url', { type: 'other', url: 'https://user:pw@example.com/h' }, M.webhookUrlInvalid],
    ['an overlong url', { type: 'other', url: `https://example.com/${'a'.repeat(1024)}` }, fmt(M.webhookUrlTooLong, { n: 1024 })],
    ['an overlong secret', { type: 'other', url: 'https://example.com/h', secret: 's'.repeat(257) }, fmt(M.webhookSecretTooLong, { n: 256 })],
  ])('refuses a webhook with %s, to save or to test', async (_n, body, msg) => {
    await refused(() => t().call(webhookSetting, { token: a.token, body }), CODE.invalid, msg);
    await refused(() => t().call(webhookTest, { token: a.token, body }), CODE.invalid, msg);
  });

  it('deletes the webhook and switches webhook notifications off with it', async () => {
    const owner = await newAccount(t());
    await t().call(webhookSetting, { token: owner.token, body: { type: 'wecom', url: robot('wecom') } });
    await monitorOn(t(), owner.token, { webhook_confirm: 1 });
    expect((await t().call(monitorConfig, { token: owner.token })).data!.webhook_confirm).toBe(1);
    expect(await t().call(webhookDelete, { token: owner.token })).toMatchObject({ code: 200, msg: M.deleted });
    expect((await t().call(webhookConfig, { token: owner.token })).data).toBeNull();
    expect((await t().call(monitorConfig, { token: owner.token })).data!.webhook_confirm).toBe(0);
    await refused(() => t().call(webhookDelete, { token: owner.token }), CODE.notFound, M.webhookNotConfigured);
    await refused(() => t().call(monitorSetting, { token: owner.token, body: { webhook_confirm: 1, router_offline: 1 } }), CODE.invalid, M.monitorWebhookFirst);
  });

  it('limits the tests of one tenant', async () => {
    const busy = await newAccount(t());
    for (let i = 0; i < 20; i++) expect((await t().call(webhookTest, { token: busy.token, body: { type: 'wecom', url: robot('wecom') } })).code).toBe(200);
    const sent = receiver.received.length;
    expect(await t().call(webhookTest, { token: busy.token, body: { type: 'wecom', url: robot('wecom') } })).toMatchObject({ code: CODE.tooMany, msg: M.webhookTestLimit });
    expect(receiver.received.length).toBe(sent);
  });

  it("keeps tenants apart, and lets a role without edit read the webhook but not change or test it", async () => {
    const b = await newAccount(t());
    expect((await t().call(webhookConfig, { token: b.token })).data).toBeNull();
    await refused(() => t().call(webhookDelete, { token: b.token }), CODE.notFound, M.webhookNotConfigured);
    expect((await t().call(webhookConfig, { token: a.token })).data).not.toBeNull();

    const viewer = await ramToken(t(), a.account.id, { ...FULL_ROLE, monitor: { view: 1, create: 1, edit: 0, delete: 1 } });
    // The robot's token is in its URL: a viewer sees where it goes, not the token (issue 32).
    const seen = (await t().call(webhookConfig, { token: viewer })).data!;
    expect(seen).toMatchObject({ type: 'dingtalk', secret: SECRET_MASK, url: `${new URL(receiver.url).origin}/${SECRET_MASK}` });
    expect(JSON.stringify(seen)).not.toContain('access_token');
    const editor = await ramToken(t(), a.account.id, FULL_ROLE);
    expect((await t().call(webhookConfig, { token: editor })).data!.url).toContain('access_token=abc');
    // A read-only API token is a viewer too.
    const reader = (await t().call(createApiToken, { token: a.token, body: { name: '只读', scope: 'read', expires_days: 30 } })).data!.token;
    expect((await t().call(webhookConfig, { token: reader })).data!.url).not.toContain('access_token');
    const sent = receiver.received.length;
    for (const call of [
      () => t().call(webhookSetting, { token: viewer, body: { type: 'wecom', url: robot('wecom') } }),
      () => t().call(webhookTest, { token: viewer, body: { type: 'wecom', url: robot('wecom') } }),
      () => t().call(webhookDelete, { token: viewer }),
    ]) {
      await refused(call, CODE.forbidden, M.deniedPermission);
    }
    expect(receiver.received.length).toBe(sent);
  });
});
