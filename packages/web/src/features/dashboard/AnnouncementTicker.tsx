import { NotificationOutlined } from '@ant-design/icons';
import { BM, LIMITS, listAnnouncements } from '@hublink/contract';
import { Card, Flex, Tag, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { announcementDetailPath } from '../../components/pageLinks';

/**
 * The latest announcements, one at a time, rotating every `intervalMs` (spec 1 §9: 3000 ms by default,
 * 5000 ms on the dashboard). Renders nothing when there is none or the list cannot be read.
 */
export function AnnouncementTicker({ intervalMs = LIMITS.tickerDefaultMs }: { intervalMs?: number }) {
  const { token } = theme.useToken();
  const { data } = useApiQuery(listAnnouncements, { page: 1 }, { quiet: true });
  const items = data?.data ?? [];
  const [index, setIndex] = useState(0);
  const count = items.length;

  useEffect(() => {
    if (count < 2) return;
    const t = setInterval(() => setIndex((i) => (i + 1) % count), intervalMs);
    return () => clearInterval(t);
  }, [count, intervalMs]);

  const current = items[index % Math.max(count, 1)];
  if (!current) return null;

  return (
    <Card size="small" variant="borderless" role="region" aria-label={BM.tickerLabel}>
      <Flex align="center" gap={token.marginSM}>
        <NotificationOutlined style={{ color: token.colorPrimary, fontSize: token.fontSizeLG }} />
        <Flex flex={1} align="center" gap={token.marginXS} style={{ minWidth: 0 }} aria-live="polite">
          {current.tag && <Tag color="blue">{current.tag}</Tag>}
          <Link to={announcementDetailPath(current.id)} style={{ minWidth: 0 }}>
            <Typography.Text ellipsis style={{ color: 'inherit' }}>
              {current.title}
            </Typography.Text>
          </Link>
          <Typography.Text type="secondary" style={{ flex: 'none' }}>
            {current.release_time}
          </Typography.Text>
        </Flex>
        <Link to="/account/announcements" style={{ flex: 'none' }}>
          {BM.tickerMore}
        </Link>
      </Flex>
    </Card>
  );
}
