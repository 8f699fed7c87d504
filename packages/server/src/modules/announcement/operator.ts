import { Marked } from 'marked';
import type { Ctx } from '../../core/context';

/** The operator's side of announcements (`hublink ops`); publish() is in service.ts. */

export interface OperatorAnnouncement {
  id: number;
  title: string;
  tag: string;
  release_time: number;
  /** Tenants see it: its release time has come. */
  released: boolean;
}

/** Every announcement, the scheduled ones too, latest release first. */
export async function allAnnouncements(ctx: Ctx, limit: number): Promise<OperatorAnnouncement[]> {
  const now = Date.now();
  const rows = await ctx.db
    .selectFrom('announcement')
    .select(['id', 'title', 'tag', 'release_time'])
    .orderBy('release_time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, release_time: Number(r.release_time), released: Number(r.release_time) <= now }));
}

/** Removes an announcement, so no tenant sees it any more; false when there is none of that id. */
export async function withdraw(ctx: Ctx, id: number): Promise<boolean> {
  const res = await ctx.db.deleteFrom('announcement').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

const markdown = new Marked({ gfm: true });

/** Markdown as HTML; publish() sanitises it like any other announcement's HTML. */
export const markdownToHtml = (text: string): string => markdown.parse(text, { async: false });
