import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idField, multilineText, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { fmt, M } from './messages';

export const announcementItem = z.object({
  id: z.number(),
  title: z.string(),
  tag: z.string(),
  release_time: z.string(),
});
export type AnnouncementItem = z.infer<typeof announcementItem>;

export const listAnnouncements = defineEndpoint({
  path: '/announcements/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(announcementItem),
  paged: true,
});

export const announcementInfo = defineEndpoint({
  path: '/announcements/info',
  method: 'GET',
  access: 'user',
  query: z.object({ id: idField() }),
  response: announcementItem.extend({ content: z.string() }),
});

/** What the operator publishes (`hublink ops`); release_time in epoch milliseconds, default now. */
export const publishAnnouncementInput = z.object({
  title: requiredString(M.announcementTitleRequired).max(
    LIMITS.announcementTitleMax,
    fmt(M.announcementTitleTooLong, { n: LIMITS.announcementTitleMax }),
  ),
  tag: plainText()
    .max(LIMITS.announcementTagMax, fmt(M.announcementTagTooLong, { n: LIMITS.announcementTagMax }))
    .default(''),
  content: multilineText(M.announcementContentRequired).min(1, M.announcementContentRequired).max(LIMITS.richTextMax, M.announcementContentTooLong),
  release_time: z.number().int().nonnegative().optional(),
});
export type PublishAnnouncementInput = z.input<typeof publishAnnouncementInput>;
