import { fmt, LIMITS, M, MESSAGE_STATUS, type DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { escapeHtml, sanitizeRichText } from '../../core/richText';

/**
 * ticket.replied: an adviser answered one of the tenant's support tickets; the message centre says so
 * (type 'ticket') with a link to the ticket. The event may come twice (at least once); the message's
 * dedupe key, one per answer, lets the second one write nothing.
 */
export async function writeTicketReplyMessage(event: DomainEvent<'ticket.replied'>, ctx: Ctx): Promise<void> {
  const number = escapeHtml(event.ticket_number);
  const link = `<a href="/ticket/detail?ticket_number=${encodeURIComponent(event.ticket_number)}">${escapeHtml(M.supportNoticeLink)}</a>`;
  const content = fmt(escapeHtml(M.supportNoticeContent), { adviser: escapeHtml(event.adviser), title: escapeHtml(event.ticket_title), number, link });
  await ctx.db
    .insertInto('message')
    .values({
      tenant_id: event.tenant_id,
      title: fmt(M.supportNoticeTitle, { number: event.ticket_number }).slice(0, LIMITS.messageTitleMax),
      content: sanitizeRichText(`<p>${content}</p>`),
      type: 'ticket',
      status: MESSAGE_STATUS.unread,
      create_time: Date.now(),
      dedupe_key: `ticket-reply:${event.dialogue_id}`,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'dedupe_key']).doNothing())
    .execute();
}
