import { announcementInfo, announcementMessages, BM, fmt } from '@hublink/contract';
import { Button, Divider, Flex, Result, Tag, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { RichHtml } from '../../components/RichHtml';

const LIST_PATH = '/account/announcements';

/**
 * One announcement (spec 1 §2.10): title, release time and rich content; clicking an image opens it
 * full size. An unknown id answers 204: the shared client shows the message and leaves (back, or the list).
 */
export default function AnnouncementDetailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const { data, isLoading } = useApiQuery(announcementInfo, { id }, { enabled: valid });
  const item = data?.data;

  if (!valid) {
    return (
      <PageContainer>
        <Result status="404" title={BM.notFound} extra={<Link to={LIST_PATH}>{BM.backToList}</Link>} />
      </PageContainer>
    );
  }

  return (
    <PageContainer loading={isLoading} extra={<Button onClick={() => void navigate(LIST_PATH)}>{BM.backToList}</Button>}>
      {item && (
        <article>
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {item.title}
          </Typography.Title>
          <Flex align="center" gap={8} wrap>
            {item.tag && <Tag color="blue">{item.tag}</Tag>}
            <Typography.Text type="secondary">{fmt(announcementMessages.announcementReleasedAt, { time: item.release_time })}</Typography.Text>
          </Flex>
          <Divider />
          <RichHtml html={item.content} previewImages />
        </article>
      )}
    </PageContainer>
  );
}
