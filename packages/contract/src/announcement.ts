import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idField, multilineText, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { announcementMessages, fmt } from './messages';

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
  title: requiredString(announcementMessages.announcementTitleRequired).max(
    LIMITS.announcementTitleMax,
    fmt(announcementMessages.announcementTitleTooLong, { n: LIMITS.announcementTitleMax }),
  ),
  tag: plainText()
    .max(LIMITS.announcementTagMax, fmt(announcementMessages.announcementTagTooLong, { n: LIMITS.announcementTagMax }))
    .default(''),
  content: multilineText(announcementMessages.announcementContentRequired).min(1, announcementMessages.announcementContentRequired).max(LIMITS.richTextMax, announcementMessages.announcementContentTooLong),
  release_time: z.number().int().nonnegative().optional(),
});
export type PublishAnnouncementInput = z.input<typeof publishAnnouncementInput>;
