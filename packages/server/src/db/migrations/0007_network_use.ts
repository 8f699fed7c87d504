import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';

/**
 * network_router_use (the tenant's distinct members in at least one network), kept by the database
 * itself: member.network_count is how many networks a member is in and account.network_router_use
 * how many of the tenant's members have a count above 0. Triggers on network_member follow every
 * insert and delete whoever makes it (the console, cascades of a deleted network, seeds); a deleted
 * member leaves the use through its own trigger, since the cascade that removes its network rows
 * runs after the member row is gone. /network/lists and /network/status read one row instead of
 * counting up to 100,000 index entries on every call.
 */
export function networkUse(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('member').addColumn('network_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('account').addColumn('network_router_use', 'integer', (c) => c.notNull().defaultTo(0)).execute();

      if (dialect === 'postgres') {
        await sql`
          create function network_member_in() returns trigger language plpgsql as $$
          declare n integer;
          begin
            update member set network_count = network_count + 1 where id = new.member_id returning network_count into n;
            if n = 1 then
              update account set network_router_use = network_router_use + 1 where id = new.tenant_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`
          create function network_member_out() returns trigger language plpgsql as $$
          declare n integer;
          begin
            update member set network_count = network_count - 1 where id = old.member_id returning network_count into n;
            if n = 0 then
              update account set network_router_use = network_router_use - 1 where id = old.tenant_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`
          create function network_member_owner_gone() returns trigger language plpgsql as $$
          begin
            if old.network_count > 0 then
              update account set network_router_use = network_router_use - 1 where id = old.tenant_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger network_member_in after insert on network_member for each row execute function network_member_in()`.execute(db);
        await sql`create trigger network_member_out after delete on network_member for each row execute function network_member_out()`.execute(db);
        await sql`create trigger network_member_owner_gone after delete on member for each row execute function network_member_owner_gone()`.execute(db);
      } else {
        await sql`
          create trigger network_member_in after insert on network_member begin
            update account set network_router_use = network_router_use + 1
              where id = new.tenant_id and (select network_count from member where id = new.member_id) = 0;
            update member set network_count = network_count + 1 where id = new.member_id;
          end`.execute(db);
        await sql`
          create trigger network_member_out after delete on network_member begin
            update member set network_count = network_count - 1 where id = old.member_id;
            update account set network_router_use = network_router_use - 1
              where id = old.tenant_id and (select network_count from member where id = old.member_id) = 0;
          end`.execute(db);
        await sql`
          create trigger network_member_owner_gone after delete on member when old.network_count > 0 begin
            update account set network_router_use = network_router_use - 1 where id = old.tenant_id;
          end`.execute(db);
      }

      await sql`update member set network_count = (select count(*) from network_member nm where nm.member_id = member.id)`.execute(db);
      await sql`
        update account set network_router_use =
          (select count(distinct nm.member_id) from network_member nm where nm.tenant_id = account.id)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop trigger if exists network_member_in on network_member`.execute(db);
        await sql`drop trigger if exists network_member_out on network_member`.execute(db);
        await sql`drop trigger if exists network_member_owner_gone on member`.execute(db);
        await sql`drop function if exists network_member_in()`.execute(db);
        await sql`drop function if exists network_member_out()`.execute(db);
        await sql`drop function if exists network_member_owner_gone()`.execute(db);
      } else {
        for (const name of ['network_member_in', 'network_member_out', 'network_member_owner_gone']) {
          await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
        }
      }
      await db.schema.alterTable('account').dropColumn('network_router_use').execute();
      await db.schema.alterTable('member').dropColumn('network_count').execute();
    },
  };
}
