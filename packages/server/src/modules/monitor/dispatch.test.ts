import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fmt, M, webhookSetting, type WebhookType } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, describeEachDatabase, newAccount, sharedDatabase, type TestApp, type TestAppOptions } from '../../../test/helpers';
import { seedFreshMembers } from '../../../test/networks';
import { until } from '../../../test/until';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../../../test/webhookReceiver';
import { monitorOn } from './fixtures';
import { NAMES_MAX } from './summary';

/*
 * The webhook queue end to end (dispatch.ts): device-offline events as the gateway emits them, through
 * the engine's debounce, grouped into summary messages to a local receiver that checks each provider's
 * signature and message shape; the provider's rate limit (smaller here, so a test sees it bind), order,
 * retries after a receiver that refuses at first, and a restart in the middle.
 */

const SECRET = 'SECdispatch0123456789';
type WebhookRate = { max: number; perMs: number };
/** A limit that binds within a test: 2 messages in 3 s (the providers' own: 20 or 100 a minute). */
const RATE: WebhookRate = { max: 2, perMs: 3000 };
const RATES = { dingtalk: [RATE], feishu: [RATE], wecom: [RATE], other: [] };
const CONFIG: TestAppOptions['config'] = { runJobs: true, alertDebounceSeconds: 1, alertRetrySeconds: 1, alertAttempts: 6, alertGroupSeconds: 2, webhookRates: RATES };
const BACKBONE = { jobPollSeconds: 0.5 };

let hooks: WebhookReceiver;
/** In front of the receiver: answers HTTP 429 to the next `refuse` requests, passes the others on. */
let gate: { url: string; refuse: number; refused: number; close(): Promise<void> };

beforeAll(async () => {
  hooks = await startWebhookReceiver(SECRET);
  const state = { refuse: 0, refused: 0 };
  const server = http.createServer((req, res) => {
    if (state.refuse > 0) {
      state.refuse--;
      state.refused++;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json' }).end('{"errcode":130101,"errmsg":"send too fast"}');
      return;
    }
    const upstream = http.request(`${hooks.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate = Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
});

afterAll(async () => {
  await gate.close();
  await hooks.close();
});

/** What one received message says: the devices it names and how many alerts it counts, per its provider's shape. */
function readMessage(hook: ReceivedHook): { title: string; names: string[]; count: number } {
  const body = hook.body as { markdown?: { title?: string; text?: string; content?: string }; content?: { text?: string } };
  const [title = '', text = ''] =
    hook.path === '/dingtalk'
      ? [body.markdown?.title, body.markdown?.text]
      : hook.path === '/feishu'
        ? (body.content?.text ?? '').split(/\n(.*)/s)
        : (body.markdown?.content ?? '').replace(/^\*\*/, '').split(/\*\*\n(.*)/s);
  const single = new RegExp(`^${escape(fmt(M.alertTitle, { kind: M.alertKindRouterOffline, name: '' }))}(.+)$`).exec(title);
  if (single) return { title, names: [single[1]!], count: 1 };
  const line = new RegExp(`${escape(M.alertKindRouterOffline)}（(\\d+) 台）：([^\\n]*)`).exec(text);
  if (!line) throw new Error(`not a summary: ${text}`);
  const count = Number(line[1]);
  const more = fmt(M.alertSummaryMore, { count });
  const listed = line[2]!.endsWith(more) ? line[2]!.slice(0, -more.length) : line[2]!;
  expect(line[2]!.endsWith(more)).toBe(count > NAMES_MAX);
  expect(title).toBe(fmt(M.alertSummaryTitle, { count }));
  return { title, names: listed.split(M.alertSummaryNameSep), count };
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** No window of the limit's period holds more of these arrivals than the limit. */
function expectWithinRate(arrivals: number[], rule: WebhookRate) {
  for (let i = rule.max; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - rule.max]!).toBeGreaterThanOrEqual(rule.perMs);
}

interface Tenant {
  id: number;
  names: string[];
  memberIds: number[];
}

/** A tenant with `n` monitored devices and its webhook of `type` at `url`, offline alerts on. */
async function tenantWith(t: TestApp, type: WebhookType, url: string, n: number): Promise<Tenant> {
  const a = await newAccount(t);
  const names = await seedFreshMembers(t, a.account.id, n);
  expect((await t.call(webhookSetting, { token: a.token, body: { type, url, secret: type === 'wecom' ? '' : SECRET } })).code).toBe(200);
  await monitorOn(t, a.token, { webhook_confirm: 1, router_offline: 1, router: names });
  const rows = await t.db.selectFrom('member').select(['id', 'router_key']).where('tenant_id', '=', a.account.id).execute();
  const idOf = new Map(rows.map((r) => [r.router_key, r.id]));
  return { id: a.account.id, names, memberIds: names.map((n) => idOf.get(n.toLowerCase())!) };
}

/** These devices of the tenant (default all) go offline at once, as the gateway reports it. */
async function burst(t: TestApp, tenant: Tenant, memberIds = tenant.memberIds): Promise<void> {
  const at = Date.now();
  await t.db.updateTable('member').set({ online_status: 0 }).where('tenant_id', '=', tenant.id).where('id', 'in', memberIds).execute();
  for (const memberId of memberIds) await t.ctx.events.emit(t.db, { type: 'member.offline', tenant_id: tenant.id, member_id: memberId, at });
  await t.ctx.events.settle();
}

const webhookDeliveries = (t: TestApp, tenantId: number) =>
  t.db.selectFrom('monitor_delivery').selectAll().where('tenant_id', '=', tenantId).where('channel', '=', 'webhook').orderBy('id').execute();
const messagesOf = (t: TestApp, tenantId: number) => t.db.selectFrom('monitor_webhook_message').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();

/** The tenant's messages all sent; answers what arrived at `path` since `since` (received), checked against the database's messages in order. */
async function expectAllArrived(t: TestApp, tenant: Tenant, path: string, since: number, n: number) {
  await until(async () => (await webhookDeliveries(t, tenant.id)).length === n && (await webhookDeliveries(t, tenant.id)).every((d) => d.status === 'sent'), `${n} webhook deliveries sent`, 380_000);
  const messages = await messagesOf(t, tenant.id);
  expect(messages.every((m) => m.status === 'sent')).toBe(true);
  const arrived = hooks.received.slice(since).filter((h) => h.path === path);
  expect(arrived.every((h) => h.valid)).toBe(true);
  // Each message, in the order the messages were made; an attempt that timed out here may still have
  // arrived (at least once), so a message's copies count once.
  const seen = new Set<string>();
  const accepted = arrived.filter((h) => {
    const content = JSON.stringify(h.body.markdown ?? h.body.content);
    if (seen.has(content)) return false;
    seen.add(content);
    return true;
  });
  expect(accepted).toHaveLength(messages.length);
  const deliveries = await webhookDeliveries(t, tenant.id);
  const alerts = await t.db.selectFrom('monitor_alert').select(['id', 'router_name']).where('tenant_id', '=', tenant.id).execute();
  const nameOf = new Map(alerts.map((a) => [a.id, a.router_name]));
  const read = accepted.map(readMessage);
  messages.forEach((m, i) => {
    const carried = deliveries.filter((d) => d.message_id === m.id).map((d) => nameOf.get(d.alert_id)!);
    expect(read[i]!.count).toBe(carried.length);
    expect(read[i]!.names).toEqual(carried.slice(0, NAMES_MAX));
  });
  // None lost, none twice: every device counted once across the messages.
  expect(read.reduce((sum, r) => sum + r.count, 0)).toBe(n);
  const named = read.flatMap((r) => r.names);
  expect(new Set(named).size).toBe(named.length);
  expect(named.every((name) => tenant.names.includes(name))).toBe(true);
  return { arrived, accepted, read, messages };
}

describeEachDatabase(
  'the webhook queue: grouping and rate limits',
  (t) => {
    it('turns a burst of 200 device-offline events into a few summaries within DingTalk’s limit, in order, none lost', async () => {
      const tenant = await tenantWith(t(), 'dingtalk', `${hooks.url}/dingtalk?access_token=burst-${t().dialect}`, 200);
      const since = hooks.received.length;
      await burst(t(), tenant);
      const { arrived, accepted, read } = await expectAllArrived(t(), tenant, '/dingtalk', since, 200);
      // A few messages, not 200: the first alone at once, then one per window.
      expect(accepted.length).toBeGreaterThan(1);
      expect(accepted.length).toBeLessThanOrEqual(12);
      expect(read.some((r) => r.count > NAMES_MAX)).toBe(true);
      expectWithinRate(
        arrived.map((h) => h.at),
        RATE,
      );
      // Every alert's record stays whole (the summary bounds only the message).
      expect((await t().db.selectFrom('monitor_alert').select('id').where('tenant_id', '=', tenant.id).execute()).length).toBe(200);
      // The engine's debounce checks are jobs run one after another: on a loaded machine the burst's
      // alerts come over a minute or more.
    }, 240_000);

    it('keeps order and loses nothing when the provider refuses at first (HTTP 429, then Feishu’s error code), with the waits', async () => {
      const tenant = await tenantWith(t(), 'feishu', `${gate.url}/feishu`, 30);
      gate.refuse = 2;
      gate.refused = 0;
      hooks.failNext('/feishu', 1);
      const since = hooks.received.length;
      // Half the devices, and once the first message was refused, the other half: their alerts wait behind it.
      await burst(t(), tenant, tenant.memberIds.slice(0, 15));
      await until(() => gate.refused > 0, 'the first refusal', 60_000);
      await burst(t(), tenant, tenant.memberIds.slice(15));
      const { messages } = await expectAllArrived(t(), tenant, '/feishu', since, 30);
      expect(gate.refused).toBe(2);
      // The first message took the refusals: 3 failed attempts, then sent; the others waited behind it.
      expect(messages[0]).toMatchObject({ status: 'sent', attempts: 4 });
      const first = (await webhookDeliveries(t(), tenant.id)).filter((d) => d.message_id === messages[0]!.id);
      expect(first.every((d) => d.attempts === 4 && d.last_error !== null)).toBe(true);
      for (let i = 1; i < messages.length; i++) expect(messages[i]!.done_at!).toBeGreaterThanOrEqual(messages[i - 1]!.done_at!);
      expect(messages[1]!.done_at!).toBeGreaterThan(messages[0]!.done_at!);
    }, 200_000);
  },
  { config: CONFIG, backbone: BACKBONE },
);

for (const dialect of DATABASES) {
  describe(`the webhook queue across a restart [${dialect}]`, () => {
    let shared: Awaited<ReturnType<typeof sharedDatabase>>;
    let first: TestApp | undefined;
    let second: TestApp | undefined;

    beforeAll(async () => {
      shared = await sharedDatabase(dialect);
      first = await createTestApp(dialect, { database: shared.open(), config: CONFIG, backbone: BACKBONE });
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
      await shared.drop();
    });

    it('sends from one instance at a time beside another, and loses nothing when one stops in the middle (WeCom)', async () => {
      const tenant = await tenantWith(first!, 'wecom', `${hooks.url}/wecom`, 60);
      const since = hooks.received.length;
      // Half the devices; once their first message went out, the other half, and a second instance beside
      // the first (both take jobs; the lane's lease keeps one sender); then the first stops.
      await burst(first!, tenant, tenant.memberIds.slice(0, 30));
      await until(async () => (await messagesOf(first!, tenant.id)).some((m) => m.status === 'sent'), 'a first message sent', 60_000);
      await burst(first!, tenant, tenant.memberIds.slice(30));
      second = await createTestApp(dialect, { database: shared.open(), config: CONFIG, backbone: BACKBONE });
      await first!.close();
      first = undefined;
      // Stopped in the middle: not everything had gone out.
      expect((await webhookDeliveries(second, tenant.id)).filter((d) => d.status === 'sent').length).toBeLessThan(60);
      const { arrived } = await expectAllArrived(second, tenant, '/wecom', since, 60);
      expectWithinRate(
        arrived.map((h) => h.at),
        RATE,
      );
    }, 200_000);
  });
}
