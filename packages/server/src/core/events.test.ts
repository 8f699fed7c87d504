import type { DomainEvent } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, newAccount, sharedDatabase, type TestApp } from '../../test/helpers';
import { until } from '../../test/until';
import { writeOperationLog } from '../modules/ram/operationLog';
import type { EventBusOptions } from './events';
import { defineModule, type Module } from './module';

const changed = (tenant: number, member: number): DomainEvent => ({ type: 'member.changed', tenant_id: tenant, member_id: member, fields: ['note'] });

/** A module that records what reaches it; `failFirst` attempts of each listed member fail. */
function recorder(name: string, failFirst: Record<number, number> = {}) {
  const seen: { tenant: number; member: number; eventId: number }[] = [];
  const tries = new Map<number, number>();
  const module: Module = defineModule({
    name,
    on: {
      'member.changed': async (e, _ctx, meta) => {
        const n = (tries.get(meta.eventId) ?? 0) + 1;
        tries.set(meta.eventId, n);
        if (n <= (failFirst[e.member_id] ?? 0)) throw new Error(`attempt ${n} of member ${e.member_id} fails`);
        seen.push({ tenant: e.tenant_id, member: e.member_id, eventId: meta.eventId });
      },
    },
  });
  return { module, seen, tries };
}

const FAST = { backoffMs: 5, maxBackoffMs: 20, pollMs: 50 };

for (const dialect of DATABASES) {
  describe(`domain events [${dialect}]`, () => {
    let shared: Awaited<ReturnType<typeof sharedDatabase>>;
    beforeAll(async () => {
      shared = await sharedDatabase(dialect);
    });
    afterAll(async () => {
      await shared?.drop();
    });

    const appWith = (modules: Module[], events: EventBusOptions = FAST) => createTestApp(dialect, { database: shared.open(), modules, backbone: { events } });
    const deliveries = (t: TestApp) => t.db.selectFrom('event_delivery').selectAll().orderBy('id').execute();

    it('writes no delivery for an event a filtered subscriber declines, and runs it for one it takes', async () => {
      const seen: string[][] = [];
      const filtered = defineModule({
        name: 'filtered',
        on: {
          'member.changed': {
            when: (e) => e.fields.includes('status'),
            run: async (e) => void seen.push(e.fields),
          },
        },
      });
      const t = await appWith([filtered]);
      try {
        await t.ctx.events.emitAll(t.db, [changed(1, 201), { type: 'member.changed', tenant_id: 1, member_id: 202, fields: ['note', 'status'] }, changed(1, 203)]);
        await t.ctx.events.settle();
        expect(seen).toEqual([['note', 'status']]);
        const rows = await t.db
          .selectFrom('event_delivery as d')
          .innerJoin('event as e', 'e.id', 'd.event_id')
          .select(['e.payload', 'd.state'])
          .where('d.subscriber', '=', 'filtered:member.changed')
          .execute();
        expect(rows.map((r) => [(JSON.parse(r.payload) as { member_id: number }).member_id, r.state])).toEqual([[202, 'done']]);
      } finally {
        await t.close();
      }
    });

    it('delivers the event when a subscription filter throws, and the change still commits', async () => {
      const seen: number[] = [];
      const broken = defineModule({
        name: 'brokenfilter',
        on: {
          'member.changed': {
            when: () => {
              throw new Error('a filter bug');
            },
            run: async (e) => void seen.push(e.member_id),
          },
        },
      });
      const t = await appWith([broken]);
      try {
        await t.ctx.events.emit(t.db, changed(1, 301));
        await t.ctx.events.settle();
        expect(seen).toEqual([301]);
      } finally {
        await t.close();
      }
    });

    it('delivers nothing for an event whose transaction rolled back', async () => {
      const r = recorder('rollback');
      const t = await appWith([r.module]);
      try {
        await expect(
          t.db.transaction().execute(async (trx) => {
            await t.ctx.events.emit(trx, changed(1, 101));
            throw new Error('the change failed');
          }),
        ).rejects.toThrow('the change failed');
        await t.ctx.events.emit(t.db, changed(1, 102));
        await t.ctx.events.settle();
        expect(r.seen.map((s) => s.member)).toEqual([102]);
        expect(await t.db.selectFrom('event').select('payload').where('payload', 'like', '%101%').execute()).toEqual([]);
      } finally {
        await t.close();
      }
    });

    it('delivers a committed event after a crash between commit and dispatch, when the app starts again', async () => {
      const before = recorder('restart');
      // The first instance commits and dies before its dispatcher takes the delivery.
      const first = await createTestApp(dialect, { database: shared.open(), modules: [before.module] });
      // createTestApp made it ready: stop its dispatcher first, so that nothing is delivered before the "crash".
      await first.ctx.events.stop();
      await first.db.transaction().execute((trx) => first.ctx.events.emit(trx, changed(2, 201)));
      const pending = (await deliveries(first)).filter((d) => d.subscriber === 'restart:member.changed');
      expect(pending.map((d) => d.state)).toEqual(['pending']);
      await first.close();
      expect(before.seen).toEqual([]);

      const after = recorder('restart');
      const second = await appWith([after.module]);
      try {
        await until(() => after.seen.length === 1, 'the event reaches the restarted app');
        expect(after.seen[0]).toMatchObject({ tenant: 2, member: 201 });
        await until(async () => (await deliveries(second)).find((d) => d.subscriber === 'restart:member.changed')?.state === 'done', 'the delivery is marked done');
      } finally {
        await second.close();
      }
    });

    it('keeps each tenant in order and retries a failing subscriber with backoff, holding back neither the others nor other tenants', async () => {
      // 'flaky' fails member 301's event twice; 'steady' never fails.
      const flaky = recorder('flaky', { 301: 2 });
      const steady = recorder('steady');
      const t = await appWith([flaky.module, steady.module]);
      try {
        await t.db.transaction().execute(async (trx) => {
          await t.ctx.events.emit(trx, changed(3, 301));
          await t.ctx.events.emit(trx, changed(3, 302));
          await t.ctx.events.emit(trx, changed(4, 401));
        });
        await until(() => steady.seen.length === 3 && flaky.seen.length === 3, 'every subscriber gets every event');
        // A handler returns before its delivery is marked done: wait for the bus to finish what it runs.
        await t.ctx.events.settle();
        expect(steady.seen.filter((s) => s.tenant === 3).map((s) => s.member)).toEqual([301, 302]);
        expect(steady.seen.map((s) => s.member)).toContain(401);
        // Tenant 4 went past the failing event of tenant 3; tenant 3's second event waited for its first.
        const order = flaky.seen.map((s) => s.member);
        expect(order.indexOf(401)).toBeLessThan(order.indexOf(301));
        expect(order.indexOf(301)).toBeLessThan(order.indexOf(302));
        const flakyRows = (await deliveries(t)).filter((d) => d.subscriber === 'flaky:member.changed');
        expect(flakyRows.map((d) => [d.state, d.attempts])).toEqual([
          ['done', 2],
          ['done', 0],
          ['done', 0],
        ]);
      } finally {
        await t.close();
      }
    });

    it("runs a tenant's deliveries one after another without a pass each: 500 events, in order, in a few passes", async () => {
      const r = recorder('chain');
      const database = shared.open();
      // No polling passes: only the passes the emit and settle() make are counted, however slow the machine.
      const t = await createTestApp(dialect, { database, modules: [r.module], backbone: { events: { ...FAST, pollMs: 600_000 } } });
      try {
        let passes = 0;
        const observed = database.onQuery;
        database.onQuery = (e) => {
          observed?.(e);
          if (/not exists/i.test(e.query.sql) && e.query.sql.includes('event_delivery')) passes++;
        };
        const members = Array.from({ length: 500 }, (_, i) => 11_000 + i);
        await t.db.transaction().execute((trx) => t.ctx.events.emitAll(trx, members.map((m) => changed(11, m))));
        await t.ctx.events.settle();
        expect(r.seen.map((s) => s.member)).toEqual(members);
        // One pass per delivery before chains (a pass reads every pending delivery).
        expect(passes).toBeLessThan(40);
      } finally {
        await t.close();
      }
    });

    it('gives a delivery up after its last attempt, logs it and lets the tenant’s later events through', async () => {
      const doomed = recorder('doomed', { 501: 99 });
      const t = await appWith([doomed.module], { ...FAST, maxAttempts: 3 });
      try {
        await t.ctx.events.emit(t.db, changed(5, 501));
        await t.ctx.events.emit(t.db, changed(5, 502));
        await until(() => doomed.seen.length === 1, 'the later event is delivered');
        expect(doomed.seen[0]!.member).toBe(502);
        const rows = (await deliveries(t)).filter((d) => d.subscriber === 'doomed:member.changed');
        expect(rows[0]).toMatchObject({ state: 'dead', attempts: 3, error: 'attempt 3 of member 501 fails' });
      } finally {
        await t.close();
      }
    });

    it('hands each delivery to one instance when several dispatch from the same database', async () => {
      const a = recorder('pair');
      const b = recorder('pair');
      const one = await appWith([a.module]);
      const two = await appWith([b.module]);
      try {
        for (let i = 1; i <= 30; i++) await one.ctx.events.emit(one.db, changed(600 + (i % 3), 6000 + i));
        await until(() => a.seen.length + b.seen.length >= 30, 'all 30 events are delivered');
        await Promise.all([one.ctx.events.settle(), two.ctx.events.settle()]);
        const ids = [...a.seen, ...b.seen].map((s) => s.eventId);
        expect(new Set(ids).size).toBe(30);
        expect(ids.length).toBe(30);
      } finally {
        await one.close();
        await two.close();
      }
    });

    it('writes the operation log once for a delivery that comes twice', async () => {
      const t = await appWith([]);
      try {
        const { account } = await newAccount(t);
        const event: DomainEvent<'operation.performed'> = { type: 'operation.performed', tenant_id: account.id, ram_id: 70, path: '/router/add', msg: 'ok' };
        await writeOperationLog(event, t.ctx, { eventId: 424242, at: 1 });
        await writeOperationLog(event, t.ctx, { eventId: 424242, at: 1 });
        expect(await t.db.selectFrom('ram_log').select(['mode', 'action']).where('tenant_id', '=', account.id).execute()).toEqual([{ mode: 'router', action: 'add' }]);
      } finally {
        await t.close();
      }
    });

    it('trims events whose deliveries have all finished, and keeps pending ones', async () => {
      const stuck = recorder('stuck', { 801: 99 });
      const t = await appWith([stuck.module], { ...FAST, backoffMs: 60_000, maxBackoffMs: 60_000 });
      try {
        await t.ctx.events.emit(t.db, changed(8, 801));
        await t.ctx.events.emit(t.db, changed(9, 901));
        await until(() => stuck.seen.length === 1, 'tenant 9 is delivered');
        await t.ctx.events.settle();
        const trimmed = await t.ctx.events.trim(-1000);
        expect(trimmed).toBeGreaterThanOrEqual(1);
        const left = await t.db.selectFrom('event').select('tenant_id').where('tenant_id', 'in', [8, 9]).execute();
        expect(left).toEqual([{ tenant_id: 8 }]);
      } finally {
        await t.close();
      }
    });
  });
}
