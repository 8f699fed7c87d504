import { ALERT_KINDS, M, SECRET_MASK, webhookConfig } from '@hublink/contract';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { webhooks } from './0043_webhooks';

describeEachDatabase('migration 0043: several webhooks per tenant', (t) => {
  it("copies each tenant's webhook (its sealed secret still opening) and points its deliveries at it", async () => {
    const db = t().db;
    const raw = db as unknown as Kysely<unknown>;
    await webhooks(t().dialect).down!(raw);
    const a = await newAccount(t());
    const tenant = a.account.id;
    const url = 'https://oapi.dingtalk.com/robot/send?access_token=old';
    // As the release before it stored them: one webhook row per tenant, deliveries naming the type.
    await db
      .insertInto('monitor_webhook')
      .values({ tenant_id: tenant, type: 'dingtalk', url, secret: t().ctx.secretBox.seal('SECold', `monitor_webhook:${tenant}`), create_time: 1000, update_time: 1000 })
      .execute();
    const alert = await db
      .insertInto('monitor_alert')
      .values({ tenant_id: tenant, dedupe_key: 'k1', kind: 'router_offline', member_id: null, router_name: 'gw', title: 't', text: 'x', at: 1, create_time: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = { tenant_id: tenant, alert_id: alert.id, contact_id: null, status: 'sent', last_error: null, next_at: 1, create_time: 1, update_time: 1, done_at: 1 };
    await db.insertInto('monitor_delivery').values([{ ...base, channel: 'webhook', target: 'dingtalk' }, { ...base, channel: 'portal', target: 'portal' }]).execute();

    await webhooks(t().dialect).up(raw);
    const hook = await db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', tenant).executeTakeFirstOrThrow();
    expect(hook).toMatchObject({ name: M.webhookDefaultName, type: 'dingtalk', url, kinds: ALERT_KINDS.join(','), at_mobiles: '', at_user_ids: '', at_all: 0 });
    expect(Number(hook.create_time)).toBe(1000);
    expect(t().ctx.secretBox.openText(hook.secret!, `monitor_webhook:${tenant}`)).toBe('SECold');
    const targets = await db.selectFrom('monitor_delivery').select(['channel', 'target']).where('tenant_id', '=', tenant).orderBy('id').execute();
    expect(targets).toEqual([
      { channel: 'webhook', target: hook.uuid },
      { channel: 'portal', target: 'portal' },
    ]);
    expect((await t().call(webhookConfig, { token: a.token })).data).toEqual({ type: 'dingtalk', url, secret: SECRET_MASK });
  });
});
