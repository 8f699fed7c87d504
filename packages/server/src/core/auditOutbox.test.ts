import { randomUUID } from 'node:crypto';
import { CODE, M, renameNetwork } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { seedNetwork } from '../../test/networks';
import { captured, openScope, type PendingCall } from './audit';
import { finishCall, sweepPending } from './auditOutbox';

// A call's audited changes are written with the changes themselves (audit_pending), so a process that
// dies between a change's commit and the call's entry leaves what the entry needs (issue 32).
describeEachDatabase('the audit outbox', (t) => {
  let tenant: number;
  let token: string;
  const callOf = (): PendingCall => ({ tenant_id: tenant, ram_id: null, path: '/network/name', who: 'main', ip: '203.0.113.7', user_agent: 'test', source: 'console', method: 'POST' });
  const pendingOf = (scopeId: string) => t().db.selectFrom('audit_pending').selectAll().where('scope_id', '=', scopeId).execute();
  const entriesNamed = async (name: string) => {
    await t().ctx.events.settle();
    const rows = await t().db.selectFrom('audit_entry').selectAll().where('tenant_id', '=', tenant).execute();
    return rows.filter((r) => r.changes.includes(name));
  };

  beforeAll(async () => {
    const a = await newAccount(t());
    tenant = a.account.id;
    token = a.token;
  });

  it('a call leaves no pending rows once answered, and its entry holds its change', async () => {
    const net = await seedNetwork(t(), tenant, { center: [], point: [] });
    const before = await t().db.selectFrom('audit_pending').select('id').execute();
    expect((await t().call(renameNetwork, { token, body: { network_number: net.network_number, network_name: '出口网络甲' } })).code).toBe(CODE.ok);
    expect(await t().db.selectFrom('audit_pending').select('id').execute()).toEqual(before);
    expect(await entriesNamed('出口网络甲')).toHaveLength(1);
  });

  it('a change made outside a transaction and one inside are each recorded with it; a rolled-back one is not', async () => {
    const net = await seedNetwork(t(), tenant, { center: [], point: [] });
    const scope = openScope({ id: randomUUID(), call: callOf() });
    await captured(scope, async () => {
      await t().db.updateTable('network').set({ network_name: '甲网络改名' }).where('id', '=', net.id).execute();
      await t().db.transaction().execute((trx) => trx.updateTable('network').set({ network_name: '乙网络改名' }).where('id', '=', net.id).execute());
      await t()
        .db.transaction()
        .execute(async (trx) => {
          await trx.updateTable('network').set({ network_name: '丙网络回滚' }).where('id', '=', net.id).execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
    });
    // The process "dies" here: no entry was written, but the committed changes are recorded.
    const rows = await pendingOf(scope.pending!.id);
    expect(rows.map((r) => r.changes).join()).toContain('甲网络改名');
    expect(rows.map((r) => r.changes).join()).toContain('乙网络改名');
    expect(rows.map((r) => r.changes).join()).not.toContain('丙网络回滚');

    // The sweep after the grace writes the entry, once, saying the call was cut off.
    expect(await sweepPending(t().db, t().ctx.events, Date.now() + 1)).toBeGreaterThanOrEqual(1);
    expect(await pendingOf(scope.pending!.id)).toEqual([]);
    const written = await entriesNamed('乙网络改名');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ msg: M.auditInterrupted, path: '/network/name', ip: '203.0.113.7', kind: 'update', object_type: 'network' });
    expect(written[0]!.changes).toContain('甲网络改名');
    expect(await sweepPending(t().db, t().ctx.events, Date.now() + 1)).toBe(0);
  });

  it('a refused call whose change committed all the same gets an entry with its answer; one that changed nothing gets none', async () => {
    const net = await seedNetwork(t(), tenant, { center: [], point: [] });
    const scope = openScope({ id: randomUUID(), call: callOf() });
    await captured(scope, () => t().db.updateTable('network').set({ network_name: '丁网络半途' }).where('id', '=', net.id).execute());
    await finishCall(t().db, t().ctx.events, scope, { ok: false, msg: '操作失败', body: {} });
    const written = await entriesNamed('丁网络半途');
    expect(written).toHaveLength(1);
    expect(written[0]!.msg).toBe('操作失败');

    const idle = openScope({ id: randomUUID(), call: callOf() });
    await captured(idle, () => t().db.selectFrom('network').select('id').execute());
    const count = async () => (await t().db.selectFrom('event').select('id').where('type', '=', 'operation.performed').execute()).length;
    const events = await count();
    await finishCall(t().db, t().ctx.events, idle, { ok: false, msg: '操作失败', body: {} });
    expect(await count()).toBe(events);
  });

  it("of a call's end and a sweep at once, one writes the entry", async () => {
    const net = await seedNetwork(t(), tenant, { center: [], point: [] });
    const scope = openScope({ id: randomUUID(), call: callOf() });
    await captured(scope, () => t().db.updateTable('network').set({ network_name: '戊网络并发' }).where('id', '=', net.id).execute());
    await Promise.all([finishCall(t().db, t().ctx.events, scope, { ok: false, msg: '操作失败', body: {} }), sweepPending(t().db, t().ctx.events, Date.now() + 1)]);
    expect(await entriesNamed('戊网络并发')).toHaveLength(1);
  });
});
