import { createContact, fmt, listMessages, M, sendContactValidation, validateEmail, webhookSetting } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestAppOptions } from '../../../test/helpers';
import { seedFreshMembers } from '../../../test/networks';
import { mailText, startSmtp, type SmtpReceiver } from '../../../test/smtp';
import { until } from '../../../test/until';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhookReceiver';
import { formatTime } from '../../core/time';
import { onPopConnected } from './engine';
import { accountWithEmail, freshEmail, monitorOn } from './fixtures';

/*
 * The alert engine end to end in one app: events as the gateway emits them, the debounce and recovery,
 * deliveries as jobs to a real SMTP server and a local webhook receiver that checks the provider's
 * signature, retries with their waits recorded, the service expiry job and the sweep.
 */

const SECRET = 'SECengine0123456789';
let smtp: SmtpReceiver;
let hooks: WebhookReceiver;
const options: TestAppOptions & { config: NonNullable<TestAppOptions['config']> } = {
  // A short grouping window: each alert here is alone in it (grouping: dispatch.test.ts).
  config: { runJobs: true, alertDebounceSeconds: 2, alertRetrySeconds: 1, alertAttempts: 3, alertGroupSeconds: 1 },
  backbone: { jobPollSeconds: 0.5 },
};

beforeAll(async () => {
  smtp = await startSmtp();
  hooks = await startWebhookReceiver(SECRET);
  options.config.smtpUrl = smtp.url;
});

afterAll(async () => {
  await smtp.close();
  await hooks.close();
});

type Account = Awaited<ReturnType<typeof accountWithEmail>>;

describeEachDatabase(
  'monitoring alert engine',
  (t) => {
    const alertsOf = (tenantId: number) => t().db.selectFrom('monitor_alert').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();
    const deliveriesOf = (alertId: number) => t().db.selectFrom('monitor_delivery').selectAll().where('alert_id', '=', alertId).orderBy('id').execute();
    const memberId = async (name: string) => (await t().db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;
    /** Offline checks the job runner finished so far (each debounce window ends in one). */
    const checksDone = async () =>
      Number((await t().db.selectFrom('job_run').select((eb) => eb.fn.countAll().as('n')).where('job', '=', 'monitor.offline-check').where('outcome', '=', 'ok').executeTakeFirstOrThrow()).n);
    const emit = async (type: 'member.offline' | 'member.online', tenantId: number, member: number, at: number) => {
      await t().db.updateTable('member').set({ online_status: type === 'member.online' ? 1 : 0 }).where('id', '=', member).execute();
      await t().ctx.events.emit(t().db, { type, tenant_id: tenantId, member_id: member, at });
      await t().ctx.events.settle();
    };
    /** Every delivery of the alert done (sent, failed, cancelled). */
    const settled = (alertId: number) => until(async () => (await deliveriesOf(alertId)).every((d) => !['pending', 'sending'].includes(d.status)), `deliveries of alert ${alertId} done`);

    let a: Account;
    let router: string;
    let verified: string;
    let unverified: string;

    beforeAll(async () => {
      a = await accountWithEmail(t());
      [router = ''] = await seedFreshMembers(t(), a.account.id, 1, { note: '机房A' });
      // One verified contact (through the mailed link) and one that never verified.
      verified = freshEmail('duty');
      unverified = freshEmail('lazy');
      const { data } = await t().call(createContact, { token: a.token, body: { name: '值班', email: verified } });
      await t().call(createContact, { token: a.token, body: { name: '懒人', email: unverified } });
      await t().call(sendContactValidation, { token: a.token, body: { uuid: data!.uuid } });
      const link = await t().db.selectFrom('outbox').select('code').where('recipient', '=', verified).orderBy('id', 'desc').executeTakeFirstOrThrow();
      await t().call(validateEmail, { body: { s: link.code } });
      await t().ctx.events.settle();
      await t().call(webhookSetting, { token: a.token, body: { type: 'dingtalk', url: `${hooks.url}/dingtalk?access_token=t1`, secret: SECRET } });
      await monitorOn(t(), a.token, { email_confirm: 1, webhook_confirm: 1, router_online: 1, router_offline: 1, router: [router] });
    });

    it('raises an offline alert after the debounce, into the message centre, every verified mailbox and the webhook', async () => {
      const id = await memberId(router);
      const at = Date.now();
      const mails = smtp.received.length;
      await emit('member.offline', a.account.id, id, at);
      await until(async () => (await alertsOf(a.account.id)).length === 1, 'the offline alert');
      const [alert] = await alertsOf(a.account.id);
      const words = { name: router, note: fmt(M.alertNote, { note: '机房A' }), time: formatTime(at, t().ctx.config.timezone) };
      // Not before the member had been offline for the whole window.
      expect(alert!.create_time - at).toBeGreaterThanOrEqual(2000);
      expect(alert).toMatchObject({ kind: 'router_offline', router_name: router, title: fmt(M.alertTitle, { kind: M.alertKindRouterOffline, name: router }), text: fmt(M.alertTextOffline, words), at });
      await settled(alert!.id);
      const deliveries = await deliveriesOf(alert!.id);
      // A webhook delivery names its webhook by uuid (issue 33: several per tenant).
      const { uuid: defaultUuid } = await t().db.selectFrom('monitor_hook').select('uuid').where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
      expect(deliveries.map((d) => [d.channel, d.target, d.status, d.attempts])).toEqual([
        ['portal', 'portal', 'sent', 1],
        ['email', a.verify, 'sent', 1],
        ['email', verified, 'sent', 1],
        ['webhook', defaultUuid, 'sent', 1],
      ]);
      // The message centre.
      await t().ctx.events.settle();
      const inbox = await t().call(listMessages, { token: a.token, query: { page: 1 } });
      expect(inbox.data![0]).toMatchObject({ title: alert!.title, type: 'alert', status: 0 });
      // Real mail over SMTP to the account and the verified contact only.
      const sent = smtp.received.slice(mails);
      expect(sent.flatMap((m) => m.to).toSorted()).toEqual([a.verify.toLowerCase(), verified].toSorted());
      expect(mailText(sent[0]!.raw)).toContain(alert!.text);
      // The webhook, signed as DingTalk checks it.
      const hook = hooks.received.at(-1)!;
      expect(hook).toMatchObject({ path: '/dingtalk', valid: true, query: expect.objectContaining({ access_token: 't1' }) });
      expect(JSON.stringify(hook.body)).toContain(router);
    });

    it('raises the recovery alert when the alerted member comes back', async () => {
      const id = await memberId(router);
      const before = (await alertsOf(a.account.id)).length;
      const at = Date.now();
      await emit('member.online', a.account.id, id, at);
      await until(async () => (await alertsOf(a.account.id)).length === before + 1, 'the recovery alert');
      const alert = (await alertsOf(a.account.id)).at(-1)!;
      expect(alert).toMatchObject({ kind: 'router_online', title: fmt(M.alertTitle, { kind: M.alertKindRouterOnline, name: router }) });
      await settled(alert.id);
      expect((await deliveriesOf(alert.id)).every((d) => d.status === 'sent')).toBe(true);
      // Told twice (at least once), it raises once.
      await emit('member.online', a.account.id, id, at);
      expect((await alertsOf(a.account.id)).length).toBe(before + 1);
    });

    /**
     * Waits until every debounce check queued so far has run: a sentinel device of the tenant goes
     * offline, and its check, due after all of those, runs after them (each runner takes one check at a
     * time, the earliest due first), so its alert marks the end. A check's delay is whole seconds rounded
     * up from when its event was handled, so an earlier check may be due up to a second after its
     * outage's window: the sentinel's outage is dated two seconds ahead to come after every one of them.
     */
    const drained = async (tenantId: number, sentinel: number) => {
      const at = Date.now() + 2000;
      await emit('member.online', tenantId, sentinel, at);
      await emit('member.offline', tenantId, sentinel, at + 1);
      await until(
        async () => (await alertsOf(tenantId)).some((x) => x.dedupe_key === `offline:${sentinel}:${at + 1}`),
        "the sentinel's offline alert",
      );
    };
    const alertsAbout = async (tenantId: number, member: number) => (await alertsOf(tenantId)).filter((x) => x.member_id === member).map((x) => x.kind);

    it('absorbs a burst of drops and returns: at most one offline and one recovery alert', async () => {
      const owner = await accountWithEmail(t());
      const [flappy = '', sentinelName = ''] = await seedFreshMembers(t(), owner.account.id, 2);
      await monitorOn(t(), owner.token, { router_online: 1, router_offline: 1, router: [flappy, sentinelName] });
      const id = await memberId(flappy);
      const sentinel = await memberId(sentinelName);
      let last = 0;
      /** A burst as the gateway would write it: each event dated when it happens, then handled together. */
      const burst = async (kinds: ('member.offline' | 'member.online')[]) => {
        for (const type of kinds) {
          last = Math.max(last + 1, Date.now());
          await t().ctx.events.emit(t().db, { type, tenant_id: owner.account.id, member_id: id, at: last });
        }
        await t().db.updateTable('member').set({ online_status: kinds.at(-1) === 'member.online' ? 1 : 0 }).where('id', '=', id).execute();
        await t().ctx.events.settle();
      };
      // Four drops, each back within the window: nothing.
      await burst(['member.offline', 'member.online', 'member.offline', 'member.online', 'member.offline', 'member.online', 'member.offline', 'member.online']);
      await drained(owner.account.id, sentinel);
      expect(await alertsAbout(owner.account.id, id)).toEqual([]);
      // The same burst ending offline: one offline alert …
      await burst(['member.offline', 'member.online', 'member.offline', 'member.online', 'member.offline']);
      await drained(owner.account.id, sentinel);
      expect(await alertsAbout(owner.account.id, id)).toEqual(['router_offline']);
      // … and, whatever follows, one recovery.
      await burst(['member.online', 'member.offline', 'member.online']);
      await drained(owner.account.id, sentinel);
      expect(await alertsAbout(owner.account.id, id)).toEqual(['router_offline', 'router_online']);
    });

    it('takes the newest change when online and offline arrive out of order', async () => {
      const owner = await accountWithEmail(t());
      const [member = '', sentinelName = ''] = await seedFreshMembers(t(), owner.account.id, 2);
      await monitorOn(t(), owner.token, { router_offline: 1, router: [member, sentinelName] });
      const id = await memberId(member);
      const t0 = Date.now();
      await emit('member.offline', owner.account.id, id, t0);
      // The return (t0 + 50) is handled, then a late copy of an older drop (t0 + 10): it is history.
      await emit('member.online', owner.account.id, id, t0 + 50);
      await emit('member.offline', owner.account.id, id, t0 + 10);
      await t().db.updateTable('member').set({ online_status: 1 }).where('id', '=', id).execute();
      await drained(owner.account.id, await memberId(sentinelName));
      expect(await alertsAbout(owner.account.id, id)).toEqual([]);
    });

    it('raises nothing for a device not monitored, a kind switched off, or monitoring off', async () => {
      const owner = await accountWithEmail(t());
      const [watched = '', other = ''] = await seedFreshMembers(t(), owner.account.id, 2);
      await monitorOn(t(), owner.token, { router_offline: 0, pop_connect: 0, service_expired: 1, router: [watched] });
      const checks = await checksDone();
      for (const name of [watched, other]) {
        const id = await memberId(name);
        await emit('member.offline', owner.account.id, id, Date.now());
        await t().ctx.events.emit(t().db, { type: 'pop.connected', tenant_id: owner.account.id, member_id: id, pop_name: 'pop-sh', area: '上海', at: Date.now() });
      }
      await t().ctx.events.settle();
      expect(await checksDone()).toBe(checks);
      expect(await t().db.selectFrom('monitor_state').select('member_id').where('tenant_id', '=', owner.account.id).execute()).toEqual([]);
      expect(await alertsOf(owner.account.id)).toEqual([]);
    });

    it('announces a POP connection at once, once per event', async () => {
      const owner = await accountWithEmail(t());
      const [member = ''] = await seedFreshMembers(t(), owner.account.id, 1);
      await monitorOn(t(), owner.token, { pop_connect: 1, router: [member] });
      const id = await memberId(member);
      const event = { type: 'pop.connected' as const, tenant_id: owner.account.id, member_id: id, pop_name: 'pop-sh', area: '上海', at: Date.now() };
      await t().ctx.events.emit(t().db, event);
      await t().ctx.events.settle();
      const [alert] = await alertsOf(owner.account.id);
      expect(alert).toMatchObject({ kind: 'pop_connect', text: fmt(M.alertTextPop, { name: member, note: '', time: formatTime(event.at, t().ctx.config.timezone), pop: 'pop-sh', area: '上海' }) });
      // A second delivery of the same event (at least once) raises nothing more.
      await onPopConnected(event, t().ctx, { eventId: Number(alert!.dedupe_key.split(':')[1]), at: Date.now() });
      expect(await alertsOf(owner.account.id)).toHaveLength(1);
      await settled(alert!.id);
      await t().ctx.events.settle();
      expect((await t().call(listMessages, { token: owner.token, query: { page: 1 } })).count).toBe(1);
    });

    it('retries a failing webhook with doubling waits, recorded, without holding up the mail and the portal', async () => {
      const owner = await accountWithEmail(t());
      const [member = ''] = await seedFreshMembers(t(), owner.account.id, 1);
      await t().call(webhookSetting, { token: owner.token, body: { type: 'feishu', url: `${hooks.url}/feishu`, secret: SECRET } });
      await monitorOn(t(), owner.token, { email_confirm: 1, webhook_confirm: 1, pop_connect: 1, router: [member] });
      // First an answer the robot refuses, then one it takes.
      hooks.failNext('/feishu', 1);
      const first = hooks.received.length;
      await t().ctx.events.emit(t().db, { type: 'pop.connected', tenant_id: owner.account.id, member_id: await memberId(member), pop_name: 'p', area: 'a', at: Date.now() });
      await t().ctx.events.settle();
      const [alert] = await alertsOf(owner.account.id);
      await settled(alert!.id);
      const [portal, mail, webhook] = await deliveriesOf(alert!.id);
      expect(portal).toMatchObject({ status: 'sent', attempts: 1 });
      expect(mail).toMatchObject({ channel: 'email', status: 'sent', attempts: 1 });
      expect(webhook).toMatchObject({ channel: 'webhook', status: 'sent', attempts: 2, last_error: fmt(M.webhookFailProvider, { provider: '飞书', code: '9499', msg: 'Bad Request' }) });
      const tries = hooks.received.slice(first).filter((h) => h.path === '/feishu');
      expect(tries.map((h) => h.valid)).toEqual([true, true]);
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(mail!.done_at!).toBeLessThan(webhook!.done_at!);
    });

    it('gives a delivery up after its attempts, the waits doubling, and a refused mailbox alike', async () => {
      const owner = await accountWithEmail(t());
      const [member = ''] = await seedFreshMembers(t(), owner.account.id, 1);
      const { data } = await t().call(createContact, { token: owner.token, body: { name: '退信', email: `reject${Date.now()}@example.com` } });
      await t().db.updateTable('monitor_contact').set({ email_verify: 1 }).where('uuid', '=', data!.uuid).execute();
      await t().call(webhookSetting, { token: owner.token, body: { type: 'other', url: `${hooks.url}/other`, secret: SECRET } });
      await monitorOn(t(), owner.token, { email_confirm: 1, webhook_confirm: 1, pop_connect: 1, router: [member] });
      hooks.failNext('/other', 10);
      const first = hooks.received.length;
      await t().ctx.events.emit(t().db, { type: 'pop.connected', tenant_id: owner.account.id, member_id: await memberId(member), pop_name: 'p', area: 'a', at: Date.now() });
      await t().ctx.events.settle();
      const [alert] = await alertsOf(owner.account.id);
      await settled(alert!.id);
      const byChannel = await deliveriesOf(alert!.id);
      expect(byChannel.map((d) => [d.channel, d.status, d.attempts])).toEqual([
        ['portal', 'sent', 1],
        ['email', 'sent', 1],
        ['email', 'failed', 3],
        ['webhook', 'failed', 3],
      ]);
      expect(byChannel[2]!.last_error).toMatch(/^邮件投递失败: .*550/);
      expect(byChannel[3]!.last_error).toBe(fmt(M.webhookFailHttp, { status: 500 }));
      const at = hooks.received.slice(first).filter((h) => h.path === '/other').map((h) => h.at);
      expect(at).toHaveLength(3);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1000);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2000);
    });

    it('announces each service expiry once, and none that expired before monitoring was on', async () => {
      const owner = await accountWithEmail(t());
      await monitorOn(t(), owner.token, { service_expired: 1 });
      const enabledAt = (await t().db.selectFrom('monitor_config').select('enable_time').where('tenant_id', '=', owner.account.id).executeTakeFirstOrThrow()).enable_time!;
      const now = Date.now();
      const service = (name: string, expired: number) => ({ tenant_id: owner.account.id, service_name: name, quantity: 1, start_time: expired - 86_400_000, expired_time: expired, create_time: expired - 86_400_000 });
      await t().db.insertInto('service').values([service('智能组网企业版', now - 1), service('旧服务', enabledAt - 60_000), service('未到期', now + 86_400_000)]).execute();
      const runs = async () => Number((await t().db.selectFrom('job_run').select((eb) => eb.fn.countAll().as('n')).where('job', '=', 'monitor.service-expiry').where('outcome', '=', 'ok').executeTakeFirstOrThrow()).n);
      const before = await runs();
      await t().ctx.jobs.send('monitor.service-expiry');
      await t().ctx.jobs.send('monitor.service-expiry');
      await until(async () => (await runs()) >= before + 2, 'two expiry runs');
      const alerts = await alertsOf(owner.account.id);
      expect(alerts.map((x) => [x.kind, x.title])).toEqual([['service_expired', fmt(M.alertTitle, { kind: M.alertKindServiceExpired, name: '智能组网企业版' })]]);
      expect(alerts[0]!.text).toBe(fmt(M.alertTextService, { name: '智能组网企业版', time: formatTime(now - 1, t().ctx.config.timezone) }));
    });

    it('sends a delivery whose job was lost, from the sweep', async () => {
      const owner = await accountWithEmail(t());
      const old = Date.now() - 120_000;
      const alert = await t()
        .db.insertInto('monitor_alert')
        .values({ tenant_id: owner.account.id, dedupe_key: 'lost:1', kind: 'pop_connect', member_id: null, router_name: '', title: '丢失的告警', text: '丢失的告警', at: old, create_time: old })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t()
        .db.insertInto('monitor_delivery')
        .values({ tenant_id: owner.account.id, alert_id: alert.id, channel: 'portal', target: 'portal', contact_id: null, status: 'pending', last_error: null, next_at: old, create_time: old, update_time: old, done_at: null })
        .execute();
      await t().ctx.jobs.send('monitor.deliveries-sweep');
      await settled(alert.id);
      await until(async () => ((await t().call(listMessages, { token: owner.token, query: { page: 1 } })).count ?? 0) === 1, 'the message');
    });
  },
  options,
);

