import { type AnnouncementItem, announcementMessages, listAnnouncements } from '@hublink/contract';
import { Tag, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { usePagedList } from '../../api/usePagedList';
import { PageContainer } from '../../components/PageContainer';
import { announcementDetailPath } from '../../components/pageLinks';
import { PagedTable } from '../../components/PagedTable';

/** The announcement list (spec 1 §2.10): title, tag, release time; 10 a page, small pager hidden on one page. */
export default function AnnouncementsPage() {
  const list = usePagedList(listAnnouncements);
  const columns: TableColumnsType<AnnouncementItem> = [
    { title: announcementMessages.announcementColTitle, dataIndex: 'title', render: (title: string, row) => <Link to={announcementDetailPath(row.id)}>{title}</Link> },
    { title: announcementMessages.announcementColTag, dataIndex: 'tag', width: 160, render: (tag: string) => (tag ? <Tag color="blue">{tag}</Tag> : null) },
    { title: announcementMessages.announcementColRelease, dataIndex: 'release_time', width: 200 },
  ];
  return (
    <PageContainer>
      <PagedTable<AnnouncementItem>
        rowKey="id"
        list={list}
        columns={columns}
        smallPager
      />
    </PageContainer>
  );
}
