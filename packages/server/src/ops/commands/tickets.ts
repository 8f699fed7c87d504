import { fmt, LIMITS, M, SUPPORT_STATUS, supportReplyField, supportTypeLabel } from '@hublink/contract';
import { z } from 'zod';
import { closeTicket, listOpenTickets, replyAsOperator, type OpenTicket } from '../../modules/ticket';
import { defineCommand, LIMIT_OPTION, limitArg, shownTime } from '../command';
import { fileArg } from '../files';

const numberArg = z.string({ error: 'a ticket number is required' }).trim().min(1, 'a ticket number is required').max(32, M.supportNotFound);

const STATUS_NAMES: Record<number, string> = { [SUPPORT_STATUS.pending]: 'pending', [SUPPORT_STATUS.replied]: 'replied', [SUPPORT_STATUS.closed]: 'closed' };

/** The operator's list pages through the module's (a page is at most LIMITS.maxPageLimit). */
async function openTickets(ctx: Parameters<typeof listOpenTickets>[0], limit: number): Promise<OpenTicket[]> {
  const rows: OpenTicket[] = [];
  for (let page = 1; rows.length < limit; page++) {
    const got = await listOpenTickets(ctx, { page, limit: LIMITS.maxPageLimit });
    rows.push(...got.rows);
    if (got.rows.length < LIMITS.maxPageLimit) break;
  }
  return rows.slice(0, limit);
}

const list = defineCommand({
  group: 'tickets',
  name: 'list',
  summary: 'open tickets of every tenant: waiting for an answer first, longest waiting first',
  options: LIMIT_OPTION,
  input: z.object({ limit: limitArg() }),
  async run(ctx, input) {
    const rows = await openTickets(ctx, input.limit);
    return {
      table: rows.map((r) => ({
        number: r.ticket_number,
        tenant: r.tenant,
        title: r.ticket_title,
        type: supportTypeLabel(r.ticketType),
        status: STATUS_NAMES[r.ticket_status] ?? String(r.ticket_status),
        created: shownTime(ctx, r.create_time),
        last_reply: r.last_reply_time === null ? '' : `${shownTime(ctx, r.last_reply_time)} (${r.last_reply_type})`,
      })),
    };
  },
});

const reply = defineCommand({
  group: 'tickets',
  name: 'reply',
  summary: 'answer a ticket as an adviser (the tenant is told in the message centre)',
  positionals: ['number'],
  options: {
    content: { help: 'the answer' },
    adviser: { help: `the adviser's name the tenant sees (default ${M.supportServiceTag})` },
    image: { multiple: true, help: `an image to attach: png, gif or jpeg, at most 2 MB; up to ${LIMITS.supportImagesMax}` },
  },
  input: z.object({
    number: numberArg,
    content: supportReplyField,
    adviser: z
      .string()
      .trim()
      .min(1, M.supportAdviserRequired)
      .max(LIMITS.supportAdviserMax, fmt(M.supportAdviserMax, { n: LIMITS.supportAdviserMax }))
      .default(M.supportServiceTag),
    image: z
      .array(fileArg('--image', LIMITS.uploadMaxBytes))
      .max(LIMITS.supportImagesMax, fmt(M.supportImagesTooMany, { n: LIMITS.supportImagesMax }))
      .default([]),
  }),
  async run(ctx, input) {
    const images = input.image.map((f) => ({ filename: f.name, body: f.body }));
    await replyAsOperator(ctx, input.number, { content: input.content, adviser: input.adviser, images });
    return { done: `ticket ${input.number} answered by ${input.adviser}${images.length ? ` with ${images.length} image(s)` : ''}` };
  },
});

const close = defineCommand({
  group: 'tickets',
  name: 'close',
  summary: 'close a ticket: no more replies; the tenant may still rate it',
  positionals: ['number'],
  input: z.object({ number: numberArg }),
  async run(ctx, input) {
    await closeTicket(ctx, input.number);
    return { done: `ticket ${input.number} closed` };
  },
});

export const ticketCommands = [list, reply, close];
