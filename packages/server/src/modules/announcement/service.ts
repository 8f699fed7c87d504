import { M, publishAnnouncementInput, type AnnouncementItem, type PublishAnnouncementInput } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { offsetOf } from '../../core/paging';
import { sanitizeRichText } from '../../core/richText';
import { formatTime } from '../../core/time';

/** Announcements are written by the operator (`hublink ops`) and read by every tenant. */
export async function list(ctx: Ctx, page: number, limit: number): Promise<{ rows: AnnouncementItem[]; count: number }> {
  const now = Date.now();
  const [rows, total] = await Promise.all([
    ctx.db
      .selectFrom('announcement')
      .select(['id', 'title', 'tag', 'release_time'])
      .where('release_time', '<=', now)
      .orderBy('release_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offsetOf(page, limit))
      .execute(),
    ctx.db
      .selectFrom('announcement')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('release_time', '<=', now)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, release_time: formatTime(r.release_time, ctx.config.timezone) })),
    count: Number(total.n),
  };
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
