import { M, publishAnnouncementInput, type AnnouncementItem, type PublishAnnouncementInput } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { pageOf } from '../../core/paging';
import { sanitizeRichText } from '../../core/richText';
import { formatTime } from '../../core/time';

/** Announcements are written by the operator (`hublink ops`) and read by every tenant. */
export async function list(ctx: Ctx, page: number, limit: number): Promise<{ rows: AnnouncementItem[]; count: number }> {
  const released = ctx.db.selectFrom('announcement').where('release_time', '<=', Date.now());
  const { rows, count } = await pageOf(released, { page, limit }, (qb) =>
    qb.select(['id', 'title', 'tag', 'release_time']).orderBy('release_time', 'desc').orderBy('id', 'desc'),
  );
  return { rows: rows.map((r) => ({ ...r, release_time: formatTime(r.release_time, ctx.config.timezone) })), count };
}

export async function info(ctx: Ctx, id: number) {
  const r = await ctx.db.selectFrom('announcement').selectAll().where('id', '=', id).where('release_time', '<=', Date.now()).executeTakeFirst();
  if (!r) throw notFound();
  return { ...r, release_time: formatTime(r.release_time, ctx.config.timezone) };
}

/** Publishes an announcement (operator side); the HTML is sanitised before it is stored. */
export async function publish(ctx: Ctx, input: PublishAnnouncementInput) {
  const parsed = publishAnnouncementInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? M.validationFailed);
  const content = sanitizeRichText(parsed.data.content);
  if (!content) throw invalid(M.announcementContentRequired);
  const row = await ctx.db
    .insertInto('announcement')
    .values({ title: parsed.data.title, tag: parsed.data.tag, content, release_time: parsed.data.release_time ?? Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
