import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';

/**
 * The number of members of each tenant and kind, kept by the database itself: a trigger counts every
 * insert and delete of a member row, whoever makes it (the console, imports, LDAP sync, cascades).
 * The member list's total, the quota and /router/quantity read one row instead of counting up to
 * 100,000 index entries on every page.
 */
export function memberCount(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('member_count')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('router_type', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('member_count_pk', ['tenant_id', 'router_type'])
        .execute();

      if (dialect === 'postgres') {
        await sql`
          create function member_count_change() returns trigger language plpgsql as $$
          begin
            if tg_op = 'INSERT' then
              insert into member_count (tenant_id, router_type, n) values (new.tenant_id, new.router_type, 1)
              on conflict (tenant_id, router_type) do update set n = member_count.n + 1;
            else
              update member_count set n = n - 1 where tenant_id = old.tenant_id and router_type = old.router_type;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger member_count_change after insert or delete on member for each row execute function member_count_change()`.execute(db);
      } else {
        await sql`
          create trigger member_count_insert after insert on member begin
            insert into member_count (tenant_id, router_type, n) values (new.tenant_id, new.router_type, 1)
            on conflict (tenant_id, router_type) do update set n = n + 1;
          end`.execute(db);
        await sql`
          create trigger member_count_delete after delete on member begin
            update member_count set n = n - 1 where tenant_id = old.tenant_id and router_type = old.router_type;
          end`.execute(db);
      }

      await sql`
        insert into member_count (tenant_id, router_type, n)
        select tenant_id, router_type, count(*) from member group by tenant_id, router_type`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop trigger if exists member_count_change on member`.execute(db);
        await sql`drop function if exists member_count_change()`.execute(db);
      } else {
        await sql`drop trigger if exists member_count_insert`.execute(db);
        await sql`drop trigger if exists member_count_delete`.execute(db);
      }
      await db.schema.dropTable('member_count').ifExists().execute();
    },
  };
}
