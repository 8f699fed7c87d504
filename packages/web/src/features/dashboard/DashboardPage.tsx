import {
  ApartmentOutlined,
  CustomerServiceOutlined,
  MailOutlined,
  MessageOutlined,
  MobileOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { accountInfo, BM, LIMITS } from '@hublink/contract';
import { Avatar, Badge, Card, Col, Descriptions, Flex, Row, Skeleton, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { AnnouncementTicker } from './AnnouncementTicker';
import { OverviewPanel } from './OverviewPanel';

interface Tile {
  path: string;
  title: string;
  text: string;
  icon: ReactNode;
  color: string;
}

/** Shortcut tiles of spec 1 §2.7. */
const TILES: Tile[] = [
  { path: '/network/lists', title: BM.dashboardNetworks, text: BM.dashboardNetworksText, icon: <ApartmentOutlined />, color: '#1677ff' },
  { path: '/router/lists', title: BM.dashboardMembers, text: BM.dashboardMembersText, icon: <TeamOutlined />, color: '#13a8a8' },
  { path: '/account/message', title: BM.dashboardMessages, text: BM.dashboardMessagesText, icon: <MessageOutlined />, color: '#fa8c16' },
  { path: '/ticket/lists', title: BM.dashboardTickets, text: BM.dashboardTicketsText, icon: <CustomerServiceOutlined />, color: '#722ed1' },
];

const AVATAR_SIZE = 64;
const TILE_ICON_SIZE = 44;

function UserCard() {
  const { token } = theme.useToken();
  const { data, isPending } = useApiQuery(accountInfo);
  const user = data?.data;
  if (isPending || !user) {
    return (
      <Card variant="borderless">
        <Skeleton avatar active paragraph={{ rows: 2 }} />
      </Card>
    );
  }
  const isRam = user.ram === 1;
  return (
    <Card variant="borderless">
      <Flex gap={token.marginLG} align="center" wrap>
        <Avatar size={AVATAR_SIZE} style={{ background: token.colorPrimary, fontSize: token.fontSizeHeading3, flex: 'none' }}>
          {user.nickname.slice(0, 1)}
        </Avatar>
        <Flex vertical gap={token.marginXXS} style={{ flex: 1, minWidth: 200 }}>
          <Flex align="center" gap={token.marginXS}>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.nickname}
            </Typography.Title>
            {isRam && <Tag color="orange">{BM.ramTag}</Tag>}
          </Flex>
          <Typography.Text type="secondary">{user.username}</Typography.Text>
        </Flex>
        <Descriptions
          column={1}
          size="small"
          style={{ flex: 'none', minWidth: 240 }}
          items={[
            {
              key: 'phone',
              label: (
                <span>
                  <MobileOutlined /> {BM.dashboardPhone}
                </span>
              ),
              children: user.user_phone || <Typography.Text type="secondary">{BM.notBound}</Typography.Text>,
            },
            {
              key: 'email',
              label: (
                <span>
                  <MailOutlined /> {BM.dashboardEmail}
                </span>
              ),
              children: user.user_email || <Typography.Text type="secondary">{BM.notBound}</Typography.Text>,
            },
          ]}
        />
      </Flex>
    </Card>
  );
}

function ShortcutTile({ tile, badge }: { tile: Tile; badge?: number }) {
  const { token } = theme.useToken();
  return (
    <Link to={tile.path} style={{ display: 'block', height: '100%' }}>
      <Card hoverable variant="borderless" style={{ height: '100%' }}>
        <Flex gap={token.margin} align="center">
          <Badge count={badge} size="small">
            <Flex
              align="center"
              justify="center"
              style={{
                width: TILE_ICON_SIZE,
                height: TILE_ICON_SIZE,
                borderRadius: token.borderRadiusLG,
                background: `${tile.color}1a`,
                color: tile.color,
                fontSize: token.fontSizeHeading3,
              }}
            >
              {tile.icon}
            </Flex>
          </Badge>
          <div style={{ minWidth: 0 }}>
            <Typography.Text strong style={{ fontSize: token.fontSizeLG }}>
              {tile.title}
            </Typography.Text>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {tile.text}
            </Typography.Paragraph>
          </div>
        </Flex>
      </Card>
    </Link>
  );
}

/** /dashboard: announcements, who is signed in, and the shortcuts (spec 1 §2.7); the live overview under them (issue 18). */
export default function DashboardPage() {
  const { token } = theme.useToken();
  const { data } = useApiQuery(accountInfo);
  const unread = data?.data?.message_count;
  return (
    <PageContainer card={false}>
      <Flex vertical gap={token.marginMD}>
        <AnnouncementTicker intervalMs={LIMITS.tickerDashboardMs} />
        <UserCard />
        <Row gutter={[token.marginMD, token.marginMD]}>
          {TILES.map((tile) => (
            <Col key={tile.path} xs={24} sm={12} xl={6}>
              <ShortcutTile tile={tile} badge={tile.path === '/account/message' ? unread : undefined} />
            </Col>
          ))}
        </Row>
        <OverviewPanel />
      </Flex>
    </PageContainer>
  );
}
