import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/** The name and kinds a copied webhook gets (a migration keeps its own copy: they must not change). */
// eslint-disable-next-line hublink-server/no-chinese-text -- stored data of a migration, fixed whatever the messages become
const DEFAULT_NAME = '默认Webhook';
const ALL_KINDS = 'router_online,router_offline,service_expired,pop_connect';

/*
 * Several webhooks per tenant (issue 33): monitor_hook, keyed by id, each with its name, the alert
 * kinds it gets and whom it mentions. Each tenant's one monitor_webhook row is copied into it (it
 * becomes the default webhook); monitor_webhook is no longer used and goes in a later release. A
 * webhook delivery's target becomes its webhook's uuid (it was the type), so the console lists the
 * deliveries of one webhook; an index serves that list. A new table, rows and an index: additive.
 */
export function webhooks(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('monitor_hook'), dialect)
        .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        /** dingtalk | feishu | wecom | other */
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('url', 'varchar(1024)', (c) => c.notNull())
        /** The signing secret sealed by the secret box (context monitor_webhook:<tenant>); null when none. */
        .addColumn('secret', 'text')
        /** The alert kinds it gets, comma-separated. */
        .addColumn('kinds', 'varchar(128)', (c) => c.notNull())
        /** Whom its messages mention: mobiles and user ids comma-separated, and everyone (0/1). */
        .addColumn('at_mobiles', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .addColumn('at_user_ids', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('at_all', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_hook_tenant').on('monitor_hook').columns(['tenant_id', 'id']).execute();
      await db.schema.createIndex('monitor_hook_name').unique().on('monitor_hook').columns(['tenant_id', 'name']).execute();
      await db.schema.createIndex('monitor_delivery_target').on('monitor_delivery').columns(['tenant_id', 'channel', 'target', 'id']).execute();

      const { rows } = await sql<{ tenant_id: number; type: string; url: string; secret: string | null; create_time: number }>`
        select tenant_id, type, url, secret, create_time from monitor_webhook order by tenant_id`.execute(db);
      const now = Date.now();
      for (const r of rows) {
        const uuid = randomUUID();
        await sql`insert into monitor_hook (uuid, tenant_id, name, type, url, secret, kinds, at_mobiles, at_user_ids, at_all, create_time, update_time)
          values (${uuid}, ${r.tenant_id}, ${DEFAULT_NAME}, ${r.type}, ${r.url}, ${r.secret}, ${ALL_KINDS}, '', '', 0, ${Number(r.create_time)}, ${now})`.execute(db);
        await sql`update monitor_delivery set target = ${uuid} where tenant_id = ${r.tenant_id} and channel = 'webhook'`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('monitor_delivery_target').ifExists().execute();
      await db.schema.dropTable('monitor_hook').ifExists().execute();
    },
  };
}
