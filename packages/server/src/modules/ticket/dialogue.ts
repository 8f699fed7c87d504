import { LIMITS, M, SUPPORT_STATUS } from '@hublink/contract';
import type { Selectable } from 'kysely';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import type { Db } from '../../db/connect';
import type { SupportTicketTable } from '../../db/types';
import { attachImages } from './images';

export type TicketRow = Selectable<SupportTicketTable>;

/**
 * A ticket by number inside a transaction, its row locked on PostgreSQL (SQLite writes one
 * transaction at a time), so replies, appraisals and closing never cross; `tenantId` limits it to
 * the tenant (the operator's side names any ticket). 204 when there is none.
 */
export async function lockTicket(ctx: Ctx, trx: Db, ticketNumber: string, tenantId?: number): Promise<TicketRow> {
  const row = await trx
    .selectFrom('support_ticket')
    .selectAll()
    .where('ticket_number', '=', ticketNumber)
    .$if(tenantId !== undefined, (qb) => qb.where('tenant_id', '=', tenantId!))
    .$if(ctx.dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound(M.supportNotFound);
  return row;
}

export interface Entry {
  reply_type: 'tenant' | 'service';
  ram_id: number | null;
  reply_name: string;
  content: string;
  fileIds: readonly string[];
}

/**
 * Writes one entry of a locked ticket's dialogue with its images, and moves the ticket: the tenant's
 * reply makes it pending (the service owes an answer), the service's makes it replied. A closed
 * ticket (by the operator or by an appraisal) takes none; a full dialogue neither. Answers the entry's id.
 */
export async function addEntry(trx: Db, ticket: TicketRow, entry: Entry): Promise<number> {
  if (ticket.status === SUPPORT_STATUS.closed || ticket.grade !== null) throw invalid(M.supportClosedNoReply);
  const { n } = await trx
    .selectFrom('support_dialogue')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('ticket_id', '=', ticket.id)
    .executeTakeFirstOrThrow();
  if (Number(n) >= LIMITS.supportDialogueMax) throw invalid(M.supportDialogueFull);
  const now = Date.now();
  const row = await trx
    .insertInto('support_dialogue')
    .values({ ticket_id: ticket.id, tenant_id: ticket.tenant_id, reply_type: entry.reply_type, ram_id: entry.ram_id, reply_name: entry.reply_name, content: entry.content, create_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await attachImages(trx, ticket.tenant_id, entry.fileIds, ticket.id, row.id);
  const status = entry.reply_type === 'service' ? SUPPORT_STATUS.replied : SUPPORT_STATUS.pending;
  await trx.updateTable('support_ticket').set({ status, update_time: now }).where('id', '=', ticket.id).execute();
  return row.id;
}
