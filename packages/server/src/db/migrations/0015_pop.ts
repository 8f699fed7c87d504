import type { Kysely, Migration } from 'kysely';

/**
 * What the pop module remembers of the access-POP order a resource came from (issue 12):
 * - network_fr.ticket_id: the order (network_ticket.id) that created it, unique, so a redelivered
 *   `network_ticket.completed` finds its resource instead of creating a second one (NULL for a
 *   resource the operator made by hand; NULLs never collide);
 * - network_fr_area.routers: the order's pop_conf for that region (JSON list of router names), so the
 *   network module can give those members the area as their main one when it assigns the resource.
 */
export function pop(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('network_fr').addColumn('ticket_id', 'integer').execute();
      await db.schema.createIndex('network_fr_ticket').unique().on('network_fr').column('ticket_id').execute();
      await db.schema.alterTable('network_fr_area').addColumn('routers', 'text', (c) => c.notNull().defaultTo('[]')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('network_fr_area').dropColumn('routers').execute();
      await db.schema.dropIndex('network_fr_ticket').execute();
      await db.schema.alterTable('network_fr').dropColumn('ticket_id').execute();
    },
  };
}
