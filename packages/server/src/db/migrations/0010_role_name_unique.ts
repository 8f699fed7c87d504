import type { Kysely, Migration } from 'kysely';

/** What makes two role names the same: the trimmed name without regard to case (as sub-account names). */
const roleNameKey = (name: string) => name.trim().toLowerCase();

type RoleRow = { id: number; tenant_id: number; name: string };

/**
 * A role's name is unique in its tenant without regard to case: a name_key column (the name lowercased
 * in JavaScript, since SQLite's lower() folds ASCII only) under a unique index. Databases from before
 * this rule may hold duplicates; the oldest role keeps its name and each later one gets '-<id>' appended
 * (ids are unique, so the new names are too unless a tenant already typed that very name, which the
 * loop skips past), so no role, and no sub-account's rights, is lost, and the tenant sees which to rename.
 */
export function roleNameUnique(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const kdb = db as unknown as Kysely<{ ram_role: RoleRow & { name_key: string } }>;
      await db.schema.alterTable('ram_role').addColumn('name_key', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      const rows = await kdb.selectFrom('ram_role').select(['id', 'tenant_id', 'name']).orderBy('id').execute();
      const keyOf = (tenantId: number, name: string) => `${tenantId}:${roleNameKey(name)}`;
      // A renamed role must not take the name of a role that comes later either.
      const typed = new Set(rows.map((r) => keyOf(r.tenant_id, r.name)));
      const taken = new Set<string>();
      const renamed = new Map<number, string>();
      for (const r of rows) {
        let name = r.name;
        for (let n = 0; taken.has(keyOf(r.tenant_id, name)); n++) {
          name = `${r.name}-${r.id}${n > 0 ? `-${n}` : ''}`;
          if (typed.has(keyOf(r.tenant_id, name))) name = r.name;
        }
        taken.add(keyOf(r.tenant_id, name));
        if (name !== r.name) renamed.set(r.id, name);
      }
      for (const r of rows) {
        const name = renamed.get(r.id) ?? r.name;
        await kdb.updateTable('ram_role').set({ name, name_key: roleNameKey(name) }).where('id', '=', r.id).execute();
      }
      await db.schema.createIndex('ram_role_tenant_name').unique().on('ram_role').columns(['tenant_id', 'name_key']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('ram_role_tenant_name').ifExists().execute();
      await db.schema.alterTable('ram_role').dropColumn('name_key').execute();
    },
  };
}
