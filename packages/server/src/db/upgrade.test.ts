import { listNetworks, listRam, listRouters } from '@hublink/contract';
import { beforeAll, describe, it } from 'vitest';
import { createTestApp, DATABASES, signIn } from '../../test/helpers';
import { emptyDatabase } from '../../test/upgradeDatabase';
import { appliedNames, readRows, seedEveryTable } from '../../test/upgradeSeed';
import { hashPassword } from '../core/passwords';
import { migrateToLatest, migrations } from './migrate';

/*
 * An upgrade from every earlier release: a database built to each migration step and filled with rows
 * in every table it has then, migrated to the latest, keeps every row with its values and serves the app.
 */

const PASSWORD = 'secret123';

/** Rows as comparable texts, limited to the columns that are still there. */
const projected = (rows: Record<string, unknown>[], columns: string[]) => rows.map((r) => JSON.stringify(columns.map((c) => r[c]))).sort();

for (const dialect of DATABASES) {
  describe(`upgrade to the latest migration [${dialect}]`, () => {
    const names = Object.keys(migrations({ dialect })).sort();
    let passwordHash: string;
    beforeAll(async () => {
      passwordHash = await hashPassword(PASSWORD);
    });

    // Each step has a database of its own: on PostgreSQL they wait on the server, so several at once.
    it.concurrent.for(names)('from a database at %s, with rows in every table', async (step, { expect }) => {
      const { handle, drop } = await emptyDatabase(dialect);
      try {
        await migrateToLatest(handle, undefined, { to: step });
        expect(await appliedNames(handle)).toEqual(names.slice(0, names.indexOf(step) + 1));
        const seeded = await seedEveryTable(handle, passwordHash);
        expect(seeded).toContain('account');
        const before = await readRows(handle);

        await migrateToLatest(handle);
        expect(await appliedNames(handle)).toEqual(names);
        const after = await readRows(handle);
        for (const [table, rows] of before) {
          expect(rows.length, `${table} was seeded`).toBeGreaterThan(0);
          const now = after.get(table);
          expect(now, `table ${table} is still there`).toBeDefined();
          const columns = Object.keys(rows[0]!).filter((c) => c in (now![0] ?? {}) || now!.length === 0);
          // Every row seeded before is still there with the values of its remaining columns.
          const kept = new Set(projected(now!, columns));
          for (const row of projected(rows, columns)) expect(kept.has(row), `${table}: ${row}`).toBe(true);
        }

        const t = await createTestApp(dialect, { database: handle });
        try {
          const res = await signIn(t, 'acme2024', PASSWORD);
          expect(res.code, res.msg).toBe(200);
          const token = res.data!.access_token;
          const routers = await t.call(listRouters, { token, query: { type: 1 } });
          const apps = await t.call(listRouters, { token, query: { type: 2 } });
          const networks = await t.call(listNetworks, { token });
          const ram = await t.call(listRam, { token });
          const hasMembers = before.has('member');
          expect(routers.data!.map((r) => r.router_name)).toEqual(hasMembers ? ['SH-HQ-01'] : []);
          expect(apps.data!.map((r) => r.router_name)).toEqual(hasMembers ? ['lili'] : []);
          expect(networks.data!.map((n) => n.network_name)).toEqual(before.has('network') ? ['总部与门店'] : []);
          expect(ram.data!.map((r) => r.username)).toEqual(['zhangwei']);
          const sub = await signIn(t, 'zhangwei@acme-cn', PASSWORD, { ram: true });
          expect(sub.code, sub.msg).toBe(200);
        } finally {
          await t.app.close();
        }
      } finally {
        await drop();
      }
    });
  });
}
