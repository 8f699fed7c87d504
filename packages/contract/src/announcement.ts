import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuery } from './fields';

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
});

export const announcementInfo = defineEndpoint({
  path: '/announcements/info',
  method: 'GET',
  access: 'user',
  query: z.object({ id: z.coerce.number().int().positive() }),
  response: announcementItem.extend({ content: z.string() }),
});
