import {
  M,
  SUPPORT_STATUS,
  type appraiseSupportTicket,
  type createSupportTicket,
  type listSupportTickets,
  type replySupportTicket,
  type SupportTicketDetail,
  type SupportTicketItem,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { randomDayNumber } from '../../core/dayNumber';
import { forbidden, invalid, notFound } from '../../core/errors';
import { contains, pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { addEntry, lockTicket, type TicketRow } from './dialogue';
import { attachImages, FILE_STATE, imageKey, imagesOf, removeDiscarded } from './images';

type ListQuery = z.output<typeof listSupportTickets.query>;
type CreateInput = z.output<typeof createSupportTicket.body>;
type ReplyInput = z.output<typeof replySupportTicket.body>;
type AppraiseInput = z.output<typeof appraiseSupportTicket.body>;

/*
 * The tenant's side of support tickets (spec 3 §2, §4, §7). A ticket belongs to the tenant: the main
 * account and every sub-account see all of them; deleting is the main account's, or the sub-account's
 * that raised it. Every query is filtered by the tenant.
 */

const NUMBER_DIGITS = 6;
const NUMBER_ATTEMPTS = 5;

/** The main account may delete any ticket; a sub-account the ones it raised. */
const mayDelete = (actor: Actor, ramId: number | null) => actor.ramId === null || actor.ramId === ramId;

/** Who writes: the main account's nickname, or the sub-account's. */
async function writerOf(db: Db, actor: Actor): Promise<{ ram_id: number | null; name: string }> {
  if (actor.ramId === null) {
    const a = await db.selectFrom('account').select('nickname').where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
    return { ram_id: null, name: a.nickname };
  }
  const r = await db.selectFrom('ram_account').select('nickname').where('id', '=', actor.ramId).where('tenant_id', '=', actor.tenantId).executeTakeFirstOrThrow();
  return { ram_id: actor.ramId, name: r.nickname };
}

function itemOf(ctx: Ctx, actor: Actor, r: Pick<TicketRow, 'ticket_number' | 'title' | 'status' | 'type' | 'create_time' | 'ram_id'>): SupportTicketItem {
  return {
    ticket_number: r.ticket_number,
    ticket_title: r.title,
    ticket_status: r.status,
    ticketType: r.type,
    create_time: formatTime(Number(r.create_time), ctx.config.timezone),
    deletable: mayDelete(actor, r.ram_id),
  };
}

/** GET /ticket/lists: newest first, 10 a page; search matches the number or the title. */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: SupportTicketItem[]; count: number }> {
  const filtered = ctx.db
    .selectFrom('support_ticket')
    .where('tenant_id', '=', actor.tenantId)
    .$if(!!q.search, (qb) => qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('ticket_number'), q.search!), contains(ctx.dialect, eb.ref('title'), q.search!)])));
  const { rows, count } = await pageOf(filtered, q, (qb) =>
    qb.select(['ticket_number', 'title', 'status', 'type', 'create_time', 'ram_id']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
  );
  return { rows: rows.map((r) => itemOf(ctx, actor, r)), count };
}

/** GET /ticket/info: the ticket, its images, its dialogue with each entry's images, and the appraisal. */
export async function info(ctx: Ctx, actor: Actor, ticketNumber: string): Promise<SupportTicketDetail> {
  const row = await ctx.db.selectFrom('support_ticket').selectAll().where('tenant_id', '=', actor.tenantId).where('ticket_number', '=', ticketNumber).executeTakeFirst();
  if (!row) throw notFound(M.supportNotFound);
  const [entries, images] = await Promise.all([
    ctx.db.selectFrom('support_dialogue').selectAll().where('ticket_id', '=', row.id).where('tenant_id', '=', actor.tenantId).orderBy('id').execute(),
    imagesOf(ctx.db, actor.tenantId, [row.id]),
  ]);
  const tz = ctx.config.timezone;
  return {
    ...itemOf(ctx, actor, row),
    content: row.content,
    images: images.get(imageKey(row.id, null)) ?? [],
    raised_by: row.raised_by,
    dialogue: entries.map((e) => ({
      reply_type: e.reply_type,
      reply_name: e.reply_name,
      reply_time: formatTime(Number(e.create_time), tz),
      dialogue_content: e.content,
      images: images.get(imageKey(row.id, e.id)) ?? [],
    })),
    appraise:
      row.grade === null ? null : { grade: row.grade, content: row.appraise_content ?? '', create_time: formatTime(Number(row.appraise_time ?? row.update_time), tz) },
  };
}

/** POST /ticket/create: a pending ticket with its images; answers its number ('T', the day, 6 random digits). */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    const writer = await writerOf(trx, actor);
    const now = Date.now();
    for (let attempt = 1; ; attempt++) {
      const number = randomDayNumber('T', NUMBER_DIGITS, now);
      const taken = await trx.selectFrom('support_ticket').select('id').where('ticket_number', '=', number).executeTakeFirst();
      if (taken && attempt < NUMBER_ATTEMPTS) continue;
      if (taken) throw new Error('no free support ticket number');
      const row = await trx
        .insertInto('support_ticket')
        .values({
          tenant_id: actor.tenantId,
          ticket_number: number,
          title: input.title,
          content: input.content,
          type: input.type,
          status: SUPPORT_STATUS.pending,
          ram_id: writer.ram_id,
          raised_by: writer.name,
          grade: null,
          appraise_content: null,
          appraise_time: null,
          create_time: now,
          update_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await attachImages(trx, actor.tenantId, input.file_ids, row.id, null);
      return number;
    }
  });
}

/** POST /ticket/delete: the ticket and its dialogue go; its images are discarded, then removed. */
export async function remove(ctx: Ctx, actor: Actor, ticketNumber: string): Promise<void> {
  const files = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockTicket(ctx, trx, ticketNumber, actor.tenantId);
    if (!mayDelete(actor, row.ram_id)) throw forbidden(M.supportDeleteForbidden);
    const attached = await trx.selectFrom('support_file').select(['id', 'tenant_id', 'storage_key']).where('ticket_id', '=', row.id).where('tenant_id', '=', actor.tenantId).execute();
    await trx.updateTable('support_file').set({ state: FILE_STATE.discarded }).where('ticket_id', '=', row.id).where('tenant_id', '=', actor.tenantId).execute();
    await trx.deleteFrom('support_ticket').where('id', '=', row.id).execute();
    return attached;
  });
  // The ticket is gone either way; what is not removed now, the sweep removes.
  await removeDiscarded(ctx, files).catch((err: unknown) => ctx.log.warn({ err, tenantId: actor.tenantId }, 'images of a deleted ticket left for the sweep'));
}

/** POST /ticket/reply: the tenant writes in the dialogue of a ticket not closed; it becomes pending. */
export async function reply(ctx: Ctx, actor: Actor, input: ReplyInput): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicket(ctx, trx, input.ticket_number, actor.tenantId);
    const writer = await writerOf(trx, actor);
    await addEntry(trx, ticket, { reply_type: 'tenant', ram_id: writer.ram_id, reply_name: writer.name, content: input.content, fileIds: input.file_ids });
  });
}

/** Whether an adviser has written in the ticket's dialogue. */
async function adviserAnswered(trx: Db, ticketId: number, tenantId: number): Promise<boolean> {
  const row = await trx.selectFrom('support_dialogue').select('id').where('ticket_id', '=', ticketId).where('tenant_id', '=', tenantId).where('reply_type', '=', 'service').limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * POST /ticket/appraise: rates the service once, after an adviser answered or closed the ticket (there
 * is no service to rate before); the ticket closes and reads only from then on.
 */
export async function appraise(ctx: Ctx, actor: Actor, input: AppraiseInput): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicket(ctx, trx, input.ticket_number, actor.tenantId);
    if (ticket.grade !== null) throw invalid(M.supportAlreadyAppraised);
    if (ticket.status !== SUPPORT_STATUS.closed && !(await adviserAnswered(trx, ticket.id, actor.tenantId))) throw invalid(M.supportAppraiseAfterReply);
    const now = Date.now();
    await trx
      .updateTable('support_ticket')
      .set({ grade: input.grade, appraise_content: input.content, appraise_time: now, status: SUPPORT_STATUS.closed, update_time: now })
      .where('id', '=', ticket.id)
      .execute();
  });
}
