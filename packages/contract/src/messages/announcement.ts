/** Announcements (spec 1 §2.10). */
export const announcementMessages = {
  // messages, announcements, services (spec 1 §2.9, §2.10; ours where the spec is silent)
  announcementTitleRequired: '请输入公告标题',
  announcementTitleTooLong: '公告标题不能超过{n}个字符',
  announcementTagTooLong: '公告标签不能超过{n}个字符',
  announcementContentRequired: '请输入公告内容',
  announcementContentTooLong: '公告内容过长',
  announcementColTitle: '标题',
  announcementColTag: '标签',
  announcementColRelease: '发布时间',
  announcementReleasedAt: '发布时间：{time}',
} as const;
