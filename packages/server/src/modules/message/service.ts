import { M, MESSAGE_STATUS, sendMessageInput, type MessageItem, type MessageSelection, type MessageType, type SendMessageInput } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { pageOf } from '../../core/paging';
import { sanitizeRichText } from '../../core/richText';
import { formatTime } from '../../core/time';

/**
 * The message centre of spec 1 §2.9. Messages belong to the tenant: the main account and its
 * sub-accounts share one inbox and one read flag per message (docs/decisions.md).
 */

const item = (ctx: Ctx, r: { id: number; title: string; create_time: number; type: string; status: number }): MessageItem => ({
  message_id: r.id,
  title: r.title,
  create_time: formatTime(r.create_time, ctx.config.timezone),
  type: r.type,
  status: r.status === MESSAGE_STATUS.read ? 1 : 0,
});

/** One page of the tenant's messages, newest first; of one type when `type` is given (the overview's alerts). */
export async function list(ctx: Ctx, actor: Actor, page: number, limit: number, type?: MessageType): Promise<{ rows: MessageItem[]; count: number }> {
  const filtered = ctx.db
    .selectFrom('message')
    .where('tenant_id', '=', actor.tenantId)
    .$if(type !== undefined, (qb) => qb.where('type', '=', type!));
  const { rows, count } = await pageOf(filtered, { page, limit }, (qb) =>
    qb.select(['id', 'title', 'create_time', 'type', 'status']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
  );
  return { rows: rows.map((r) => item(ctx, r)), count };
}

/** One message with its content; opening it marks it read (spec 1 §4). Another tenant's is 204. */
export async function open(ctx: Ctx, actor: Actor, messageId: number) {
  const row = await ctx.db
    .selectFrom('message')
    .select(['id', 'title', 'content', 'create_time', 'type', 'status'])
    .where('id', '=', messageId)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirst();
  if (!row) throw notFound(M.messageNotFound);
  if (row.status !== MESSAGE_STATUS.read) {
    await ctx.db
      .updateTable('message')
      .set({ status: MESSAGE_STATUS.read })
      .where('id', '=', row.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  }
  return { ...item(ctx, { ...row, status: MESSAGE_STATUS.read }), content: row.content };
}

/**
 * The ids a selection names, all of them the tenant's; null means every message of the tenant.
 * A selection naming any message the tenant does not have is refused as a whole (204), so a stale or
 * foreign id never leaves half a selection changed.
 */
async function resolve(ctx: Ctx, actor: Actor, sel: MessageSelection): Promise<number[] | null> {
  if (sel.type === 'all') return null;
  const ids = [...new Set(sel.message_id ?? [])];
  if (ids.length === 0) throw invalid(M.selectMessage);
  const found = await ctx.db
    .selectFrom('message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', actor.tenantId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  if (Number(found.n) !== ids.length) throw notFound(M.messageNotFound);
  return ids;
}

/** Marks the selection read; answers how many messages changed from unread. */
export async function markRead(ctx: Ctx, actor: Actor, sel: MessageSelection): Promise<number> {
  const ids = await resolve(ctx, actor, sel);
  let q = ctx.db
    .updateTable('message')
    .set({ status: MESSAGE_STATUS.read })
    .where('tenant_id', '=', actor.tenantId)
    .where('status', '=', MESSAGE_STATUS.unread);
  if (ids) q = q.where('id', 'in', ids);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Deletes the selection; answers how many messages went. */
export async function remove(ctx: Ctx, actor: Actor, sel: MessageSelection): Promise<number> {
  const ids = await resolve(ctx, actor, sel);
  let q = ctx.db.deleteFrom('message').where('tenant_id', '=', actor.tenantId);
  if (ids) q = q.where('id', 'in', ids);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Sends a tenant a message (operator CLI, and the service's own notices: tickets, alerts, expiring
 * services). The HTML is sanitised before it is stored. Answers the new message_id.
 */
export async function send(ctx: Ctx, tenantId: number, input: SendMessageInput): Promise<number> {
  const parsed = sendMessageInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? M.validationFailed);
  const content = sanitizeRichText(parsed.data.content);
  if (!content) throw invalid(M.messageContentRequired);
  const tenant = await ctx.db.selectFrom('account').select('id').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw notFound(M.accountNotFound);
  const row = await ctx.db
    .insertInto('message')
    .values({
      tenant_id: tenantId,
      title: parsed.data.title,
      content,
      type: parsed.data.type,
      status: MESSAGE_STATUS.unread,
      create_time: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
