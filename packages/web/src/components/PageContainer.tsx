import { BM } from '@hublink/contract';
import { Breadcrumb, Card, Flex, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PATH } from '../session/paths';
import { usePageRoute, type Crumb } from './pageRoute';

export interface PageContainerProps {
  /** Defaults to the route's title. */
  title?: ReactNode;
  /** One line under the title. */
  description?: ReactNode;
  /** Actions at the right of the title (buttons). */
  extra?: ReactNode;
  /** Defaults to where the page sits in the side menu. */
  breadcrumb?: Crumb[];
  /** Shows a skeleton instead of the content. */
  loading?: boolean;
  /** Wraps the content in one card (default); pass false to lay out several cards yourself. */
  card?: boolean;
  children?: ReactNode;
}

/**
 * The frame of a console page: breadcrumb, title with actions, then the content in a card. The title
 * and breadcrumb come from the route the router layer provides (PageRouteContext).
 */
export function PageContainer({ title, description, extra, breadcrumb, loading, card = true, children }: PageContainerProps) {
  const route = usePageRoute();
  const { token } = theme.useToken();
  const own = breadcrumb ?? route?.breadcrumb ?? [];
  // A page at the top of the menu (监控告警策略, 客服工单, …) is placed under the overview, so that every
  // console page shows where it is, as the pages inside a menu group do.
  const crumbs = own.length === 1 && own[0]!.title !== BM.routeDashboard ? [{ title: BM.routeDashboard, path: DEFAULT_PATH }, ...own] : own;
  const body = loading ? <Skeleton active paragraph={{ rows: 6 }} /> : children;
  return (
    <section style={{ display: 'flex', flexDirection: 'column', gap: token.marginMD }}>
      <header>
        {crumbs.length > 1 && (
          <Breadcrumb
            style={{ marginBottom: token.marginXS }}
            items={crumbs.map((c) => ({ title: c.path ? <Link to={c.path}>{c.title}</Link> : c.title }))}
          />
        )}
        <Flex align="center" justify="space-between" gap={token.margin} wrap>
          {/* The page's one <h1>, drawn at the size the console's page titles have. */}
          <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4 }}>
            {title ?? route?.title}
          </Typography.Title>
          {extra && <Flex gap={token.marginXS} wrap>{extra}</Flex>}
        </Flex>
        {description && (
          <Typography.Paragraph type="secondary" style={{ margin: `${token.marginXS}px 0 0` }}>
            {description}
          </Typography.Paragraph>
        )}
      </header>
      {card ? <Card variant="borderless">{body}</Card> : body}
    </section>
  );
}
