import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';

/**
 * The member list's search box on SQLite: a trigram full-text index of each member's name (router_key),
 * note and phone, so "contains" finds its rows without reading 100,000 of them. It is an external
 * content table over member, kept by triggers on every insert, delete and change of those columns.
 * PostgreSQL keeps its ILIKE scan (no extension is assumed).
 */
export function memberSearch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`create virtual table member_fts using fts5(router_key, note, phone, content='member', content_rowid='id', tokenize='trigram')`.execute(db);
      await sql`
        create trigger member_fts_insert after insert on member begin
          insert into member_fts (rowid, router_key, note, phone) values (new.id, new.router_key, new.note, coalesce(new.phone, ''));
        end`.execute(db);
      await sql`
        create trigger member_fts_delete after delete on member begin
          insert into member_fts (member_fts, rowid, router_key, note, phone) values ('delete', old.id, old.router_key, old.note, coalesce(old.phone, ''));
        end`.execute(db);
      await sql`
        create trigger member_fts_update after update of router_key, note, phone on member begin
          insert into member_fts (member_fts, rowid, router_key, note, phone) values ('delete', old.id, old.router_key, old.note, coalesce(old.phone, ''));
          insert into member_fts (rowid, router_key, note, phone) values (new.id, new.router_key, new.note, coalesce(new.phone, ''));
        end`.execute(db);
      await sql`insert into member_fts (rowid, router_key, note, phone) select id, router_key, note, coalesce(phone, '') from member`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      for (const t of ['member_fts_insert', 'member_fts_delete', 'member_fts_update']) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
      await sql`drop table if exists member_fts`.execute(db);
    },
  };
}
