import { sql, type Kysely, type Migration } from 'kysely';

/** The member-name rule as this migration applies it (contract memberNameOf when written; a migration keeps its own copy). */
function memberNameOf(directoryName: string): string {
  const at = directoryName.indexOf('@');
  const ends = /^[_.]+|[_.]+$/g;
  const name = (at >= 0 ? directoryName.slice(0, at) : directoryName)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9_.]+/g, '_')
    .replace(ends, '');
  return name.slice(0, 18).replace(ends, '');
}

/**
 * User selection and attribute mapping of the directory sync (issue 33). ldap_config gets the group
 * and the filter that select the users, and the attributes the member's name, note, phone and e-mail
 * come from ('' name_attr: the type's default, uid or sAMAccountName; note_attr description as before).
 * ldap_user gets the member name each user maps to (and its key, to find collisions), the phone and the
 * e-mail. The users already read get their member names now, by the rule without lower-casing (the
 * default). Columns with defaults: additive, an earlier release ignores them.
 */
export function ldapSelection(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const config = db.schema.alterTable('ldap_config');
      await config.addColumn('user_group', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
      await config.addColumn('user_filter', 'varchar(1024)', (c) => c.notNull().defaultTo('')).execute();
      await config.addColumn('name_attr', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await config.addColumn('name_lower', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await config.addColumn('note_attr', 'varchar(64)', (c) => c.notNull().defaultTo('description')).execute();
      await config.addColumn('phone_attr', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await config.addColumn('email_attr', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      const user = db.schema.alterTable('ldap_user');
      await user.addColumn('member_name', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await user.addColumn('member_key', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await user.addColumn('phone', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
      await user.addColumn('email', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.createIndex('ldap_user_member_key').on('ldap_user').columns(['tenant_id', 'member_key']).execute();
      const { rows } = await sql<{ id: number; username: string }>`select id, username from ldap_user`.execute(db);
      for (const { id, username } of rows) {
        const name = memberNameOf(username);
        await sql`update ldap_user set member_name = ${name}, member_key = ${name.toLowerCase()} where id = ${id}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('ldap_user_member_key').execute();
      for (const c of ['email', 'phone', 'member_key', 'member_name']) await db.schema.alterTable('ldap_user').dropColumn(c).execute();
      for (const c of ['email_attr', 'phone_attr', 'note_attr', 'name_lower', 'name_attr', 'user_filter', 'user_group']) await db.schema.alterTable('ldap_config').dropColumn(c).execute();
    },
  };
}
