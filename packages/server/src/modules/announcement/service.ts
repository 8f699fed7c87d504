import type { AnnouncementItem } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import { offsetOf } from '../../core/paging';
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

/** Publishes an announcement (operator side). */
export async function publish(ctx: Ctx, input: { title: string; tag: string; content: string; release_time?: number }) {
  const row = await ctx.db
    .insertInto('announcement')
    .values({ title: input.title, tag: input.tag, content: input.content, release_time: input.release_time ?? Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
