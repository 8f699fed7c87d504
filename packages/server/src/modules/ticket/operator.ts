import { fmt, LIMITS, M, SUPPORT_STATUS } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import type { Upload } from '../../core/http';
import { offsetOf } from '../../core/paging';
import { addEntry, lockTicket } from './dialogue';
import { imageTypeOf, storeImage } from './images';

/*
 * The service operator's side of support tickets (`hublink ops tickets` calls these): the open
 * tickets, an adviser's answer with images, closing. A ticket is named by its number, unique across
 * tenants. Refusals are ApiErrors with the message to print.
 */

export interface OpenTicket {
  ticket_number: string;
  tenant_id: number;
  /** The tenant's username. */
  tenant: string;
  ticket_title: string;
  ticketType: number;
  ticket_status: number;
  raised_by: string;
  /** Epoch ms. */
  create_time: number;
  update_time: number;
  /** Entries of the dialogue so far. */
  entries: number;
  /** Who wrote the last entry and when (epoch ms); null before the first. */
  last_reply_type: 'tenant' | 'service' | null;
  last_reply_time: number | null;
}

/**
 * Tickets not closed, those waiting for the service (pending) first, each group longest waiting first;
 * `limit` 10 by default, at most LIMITS.maxPageLimit.
 */
export async function listOpenTickets(ctx: Ctx, opts: { page?: number; limit?: number } = {}): Promise<{ rows: OpenTicket[]; count: number }> {
  const page = Math.max(1, Math.floor(opts.page ?? 1));
  const limit = Math.min(LIMITS.maxPageLimit, Math.max(1, Math.floor(opts.limit ?? LIMITS.pageSize)));
  const open = ctx.db.selectFrom('support_ticket as t').where('t.status', '!=', SUPPORT_STATUS.closed);
  const rows = await open
    .innerJoin('account as a', 'a.id', 't.tenant_id')
    .select((eb) => [
      't.ticket_number',
      't.tenant_id',
      'a.username as tenant',
      't.title as ticket_title',
      't.type as ticketType',
      't.status as ticket_status',
      't.raised_by',
      't.create_time',
      't.update_time',
      eb.selectFrom('support_dialogue as d').select((d) => d.fn.countAll().as('n')).whereRef('d.ticket_id', '=', 't.id').as('entries'),
      eb.selectFrom('support_dialogue as d').select('d.reply_type').whereRef('d.ticket_id', '=', 't.id').orderBy('d.id', 'desc').limit(1).as('last_reply_type'),
      eb.selectFrom('support_dialogue as d').select('d.create_time').whereRef('d.ticket_id', '=', 't.id').orderBy('d.id', 'desc').limit(1).as('last_reply_time'),
    ])
    .orderBy('t.status')
    .orderBy('t.update_time')
    .orderBy('t.id')
    .limit(limit)
    .offset(offsetOf(page, limit))
    .execute();
  const { n } = await open.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return {
    rows: rows.map((r) => ({
      ...r,
      create_time: Number(r.create_time),
      update_time: Number(r.update_time),
      entries: Number(r.entries ?? 0),
      last_reply_type: r.last_reply_type ?? null,
      last_reply_time: r.last_reply_time === null || r.last_reply_time === undefined ? null : Number(r.last_reply_time),
    })),
    count: Number(n),
  };
}

export interface OperatorReply {
  content: string;
  /** The adviser's name the tenant sees on the answer. */
  adviser: string;
  /** Images, checked as the tenant's uploads are (png, gif, jpeg by name and content; 2 MB; at most 3). */
  images?: Upload[];
}

/** Trimmed text, required and bounded, refused with the area's messages. */
function text(value: string, required: string, max: number, tooLong: string): string {
  const v = value.trim();
  if (v.length === 0) throw invalid(required);
  if (v.length > max) throw invalid(fmt(tooLong, { n: max }));
  return v;
}

/**
 * An adviser answers a ticket not closed: the entry with its images, the ticket replied (2), and
 * `ticket.replied` in the same transaction, so the message centre tells the tenant. The images are
 * stored as the tenant's pending uploads first; if the answer is refused they are swept with the rest.
 */
export async function replyAsOperator(ctx: Ctx, ticketNumber: string, input: OperatorReply): Promise<void> {
  const content = text(input.content, M.supportReplyRequired, LIMITS.supportContentMax, M.supportReplyMax);
  const adviser = text(input.adviser, M.supportAdviserRequired, LIMITS.supportAdviserMax, M.supportAdviserMax);
  const images = input.images ?? [];
  if (images.length > LIMITS.supportImagesMax) throw invalid(fmt(M.supportImagesTooMany, { n: LIMITS.supportImagesMax }));
  for (const image of images) imageTypeOf(image);
  const found = await ctx.db.selectFrom('support_ticket').select(['tenant_id', 'status']).where('ticket_number', '=', ticketNumber).executeTakeFirst();
  // Refused before any image is stored; the locked read below decides for good.
  if (found?.status === SUPPORT_STATUS.closed) throw invalid(M.supportClosedNoReply);
  const fileIds: string[] = [];
  if (found) for (const image of images) fileIds.push((await storeImage(ctx, found.tenant_id, image)).file_id);
  await ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicket(ctx, trx, ticketNumber);
    const dialogueId = await addEntry(trx, ticket, { reply_type: 'service', ram_id: null, reply_name: adviser, content, fileIds });
    await ctx.events.emit(trx, { type: 'ticket.replied', tenant_id: ticket.tenant_id, ticket_id: ticket.id, dialogue_id: dialogueId, ticket_number: ticket.ticket_number, ticket_title: ticket.title, adviser });
  });
}

/** Closes a ticket: it takes no more replies; the tenant may still rate it. Closing a closed one is refused. */
export async function closeTicket(ctx: Ctx, ticketNumber: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicket(ctx, trx, ticketNumber);
    if (ticket.status === SUPPORT_STATUS.closed) throw invalid(M.supportAlreadyClosed);
    await trx.updateTable('support_ticket').set({ status: SUPPORT_STATUS.closed, update_time: Date.now() }).where('id', '=', ticket.id).execute();
  });
}
