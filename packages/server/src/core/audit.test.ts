import { LIMITS } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { captured, openScope, uncaptured } from './audit';
import { cellOf, diffRow, summary } from './auditEntry';

describeEachDatabase('audit capture: row changes of the queries a scope runs', (t) => {
  let tenantId: number;

  beforeAll(async () => {
    tenantId = (await newAccount(t())).account.id;
  });

  const role = (name: string, auth = '{}') => {
    const now = Date.now();
    return { tenant_id: tenantId, name, name_key: name.toLowerCase(), note: '', auth, create_time: now, update_time: now };
  };

  it('records an insert with its values and id, an update with the changed fields only, a delete with the old values', async () => {
    const scope = openScope();
    const id = await captured(scope, async () => {
      const r = await t().db.insertInto('ram_role').values(role('审计A')).returning('id').executeTakeFirstOrThrow();
      await t().db.updateTable('ram_role').set({ note: '新备注' }).where('id', '=', r.id).where('tenant_id', '=', tenantId).execute();
      // An update that changes nothing is no change.
      await t().db.updateTable('ram_role').set({ note: '新备注' }).where('id', '=', r.id).execute();
      await t().db.deleteFrom('ram_role').where('id', '=', r.id).execute();
      return r.id;
    });
    expect(scope.changes.map((c) => [c.table, c.op, c.id])).toEqual([
      ['ram_role', 'insert', id],
      ['ram_role', 'update', id],
      ['ram_role', 'delete', id],
    ]);
    expect(scope.changes[0]!.fields).toContainEqual({ field: 'name', before: null, after: '审计A' });
    expect(scope.changes[0]!.tenantId).toBe(tenantId);
    expect(scope.changes[0]!.name).toBe('审计A');
    expect(scope.changes[1]!.fields).toEqual([{ field: 'note', before: '', after: '新备注' }]);
    expect(scope.changes[2]!.fields).toContainEqual({ field: 'note', before: '新备注', after: null });
    expect(scope.closed).toBe(true);
  });

  it('records an insert without RETURNING too (the id where the database tells it)', async () => {
    const scope = openScope();
    await captured(scope, () => t().db.insertInto('ram_role').values(role('审计B')).execute());
    expect(scope.changes).toHaveLength(1);
    expect(scope.changes[0]).toMatchObject({ table: 'ram_role', op: 'insert' });
    expect(scope.changes[0]!.fields).toContainEqual({ field: 'name', before: null, after: '审计B' });
    if (t().dialect === 'sqlite') expect(scope.changes[0]!.id).toEqual(expect.any(Number));
  });

  it('never keeps a secret: a password hash is recorded as changed, without either value', async () => {
    const before = await t().db.selectFrom('account').select('password_hash').where('id', '=', tenantId).executeTakeFirstOrThrow();
    const scope = openScope();
    await captured(scope, () => t().db.updateTable('account').set({ password_hash: 'another-hash', nickname: '审计昵称' }).where('id', '=', tenantId).execute());
    await t().db.updateTable('account').set({ password_hash: before.password_hash }).where('id', '=', tenantId).execute();
    expect(scope.changes).toHaveLength(1);
    const fields = scope.changes[0]!.fields;
    expect(fields).toContainEqual({ field: 'password_hash', before: null, after: null, secret: true });
    expect(fields.find((f) => f.field === 'nickname')).toMatchObject({ after: '审计昵称' });
    expect(JSON.stringify(scope.changes)).not.toContain('another-hash');
    expect(JSON.stringify(scope.changes)).not.toContain(before.password_hash);
    expect(scope.changes[0]!.tenantId).toBe(tenantId);
  });

  it('cuts long values and keeps at most LIMITS.auditChangesMax row changes, counting the rest', async () => {
    const long = JSON.stringify({ blob: 'x'.repeat(LIMITS.auditValueMax * 3) });
    const n = LIMITS.auditChangesMax + 5;
    const scope = openScope();
    await captured(scope, async () => {
      await t().db.insertInto('ram_role').values(role('审计长', long)).execute();
      await t().db
        .insertInto('ram_role')
        .values(Array.from({ length: n - 1 }, (_, i) => role(`审计批${i}`)))
        .execute();
    });
    expect(scope.changes).toHaveLength(LIMITS.auditChangesMax);
    expect(scope.more).toBe(5);
    const auth = scope.changes[0]!.fields.find((f) => f.field === 'auth')!;
    expect(String(auth.after)).toHaveLength(LIMITS.auditValueMax + 1);
    expect(String(auth.after).endsWith('…')).toBe(true);

    // A bulk update reads at most LIMITS.auditChangesMax + 1 rows first and counts the others.
    const bulk = openScope();
    await captured(bulk, () => t().db.updateTable('ram_role').set({ note: '批量' }).where('tenant_id', '=', tenantId).where('name', 'like', '审计批%').execute());
    expect(bulk.changes).toHaveLength(LIMITS.auditChangesMax);
    expect(bulk.more).toBe(n - 1 - LIMITS.auditChangesMax);
    expect(bulk.changes.every((c) => c.op === 'update' && c.fields.length === 1 && c.fields[0]!.after === '批量')).toBe(true);
  });

  it('captures inside a transaction, and nothing outside a scope, in bookkeeping tables, or after the scope closed', async () => {
    const scope = openScope();
    await captured(scope, () =>
      t().db.transaction().execute(async (trx) => {
        await trx.insertInto('ram_role').values(role('审计事务')).execute();
        // The event and its deliveries are bookkeeping: not the call's changes.
        await t().ctx.events.emit(trx, { type: 'account.signed_in', tenant_id: tenantId, ram_id: null });
      }),
    );
    expect(scope.changes.map((c) => c.table)).toEqual(['ram_role']);
    await t().db.updateTable('ram_role').set({ note: '无范围' }).where('tenant_id', '=', tenantId).execute();
    expect(scope.changes).toHaveLength(1);
    const outside = openScope();
    await captured(outside, async () => {
      await uncaptured(() => t().db.updateTable('ram_role').set({ note: '退出' }).where('tenant_id', '=', tenantId).execute());
    });
    expect(outside.changes).toEqual([]);
  });

  it("summarises a call: its object is the first changed row's (or the network its body names)", () => {
    expect(summary([], { network_number: 'N1' })).toMatchObject({ object: { type: 'network', id: 'N1', name: '' }, changes: [] });
    const s = summary([{ table: 'network', id: 7, op: 'update', fields: [{ field: 'network_name', before: 'a', after: 'b' }], tenantId: 1, name: 'b' }], {});
    expect(s).toEqual({ object: { type: 'network', id: '7', name: 'b' }, changes: [{ table: 'network', id: 7, name: 'b', op: 'update', fields: [{ field: 'network_name', before: 'a', after: 'b' }] }] });
    // A network's member row has no name: the member the call names is its name.
    const member = summary([{ table: 'network_member', id: 3, op: 'update', fields: [{ field: 'mode', before: 1, after: 2 }], tenantId: 1, name: '' }], { router_name: 'alice' });
    expect(member.object).toEqual({ type: 'network_member', id: '3', name: 'alice' });
    expect(member.changes[0]).not.toHaveProperty('name');
  });
});

it('diffRow and cellOf: only changed fields, binary as its size, secrets masked', () => {
  expect(diffRow({ a: 1, b: 'x', token: 's1' }, { a: 1, b: 'y', token: 's2' })).toEqual([
    { field: 'b', before: 'x', after: 'y' },
    { field: 'token', before: null, after: null, secret: true },
  ]);
  expect(diffRow(undefined, { a: 1, b: null })).toEqual([{ field: 'a', before: null, after: 1 }]);
  expect(cellOf(Buffer.from('abc'))).toBe('[3 bytes]');
  expect(cellOf(10n)).toBe(10);
  expect(cellOf({ k: 1 })).toBe('{"k":1}');
});
