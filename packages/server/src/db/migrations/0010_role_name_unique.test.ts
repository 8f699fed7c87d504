import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { roleNameUnique } from './0010_role_name_unique';

describeEachDatabase('migration 0010: role names unique in a tenant', (t) => {
  it('keeps the oldest name of duplicates, appends the id to the others, and then refuses a duplicate', async () => {
    const db = t().db;
    const raw = db as unknown as Kysely<unknown>;
    const a = await newAccount(t());
    const b = await newAccount(t());
    await roleNameUnique().down!(raw);

    const insert = async (tenantId: number, name: string) => {
      const now = Date.now();
      const row = await (db as unknown as Kysely<{ ram_role: { id?: number; tenant_id: number; name: string; note: string; auth: string; create_time: number; update_time: number } }>)
        .insertInto('ram_role')
        .values({ tenant_id: tenantId, name, note: '', auth: '{}', create_time: now, update_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id!;
    };
    const first = await insert(a.account.id, 'Ops');
    const second = await insert(a.account.id, 'ops');
    // A name someone already typed that the renamed duplicate would otherwise take.
    await insert(a.account.id, `Ops-${second + 2}`);
    const third = await insert(a.account.id, 'OPS');
    const elsewhere = await insert(b.account.id, 'Ops');

    await roleNameUnique().up(raw);

    const rows = await db.selectFrom('ram_role').select(['id', 'name', 'name_key']).where('tenant_id', 'in', [a.account.id, b.account.id]).orderBy('id').execute();
    const nameOf = (id: number) => rows.find((r) => r.id === id)?.name;
    expect(nameOf(first)).toBe('Ops');
    expect(nameOf(second)).toBe(`ops-${second}`);
    expect(nameOf(third)).toBe(`OPS-${third}-1`);
    expect(nameOf(elsewhere)).toBe('Ops');
    expect(rows.every((r) => r.name_key === r.name.toLowerCase())).toBe(true);

    const now = Date.now();
    await expect(
      db.insertInto('ram_role').values({ tenant_id: a.account.id, name: 'OPS', name_key: 'ops', note: '', auth: '{}', create_time: now, update_time: now }).execute(),
    ).rejects.toThrow();
  });
});
