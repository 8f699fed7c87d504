import type { Generated } from 'kysely';

/** Announcements: the announcement module owns them (the operator CLI writes them). */
export interface AnnouncementsSchema {
  announcement: AnnouncementTable;
}

export interface AnnouncementTable {
  id: Generated<number>;
  title: string;
  tag: string;
  content: string;
  release_time: number;
}
