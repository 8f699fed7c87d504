import { AlertOutlined, ApartmentOutlined, ClockCircleOutlined, DesktopOutlined, HddOutlined, SyncOutlined } from '@ant-design/icons';
import { type ByMemberType, dashboardOverview, fmt, LIMITS, MEMBER_STATE, type Overview, overviewMessages, ROUTER_TYPE } from '@hublink/contract';
import { Alert, Button, Card, Col, Flex, Progress, Row, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { memberListPath, messagesOfTypePath } from '../../components/pageLinks';

const MS_PER_SECOND = 1000;
const PERCENT = 100;
/** Quota use from this share on shows as a warning. */
const QUOTA_WARN_PERCENT = 90;

const FIGURE_COLORS = { networks: '#1677ff', hardware: '#13a8a8', software: '#2f54eb', behind: '#fa8c16', offline: '#8c8c8c', alerts: '#f5222d' } as const;

interface FigureProps {
  label: string;
  icon: ReactNode;
  color: string;
  /** The big number and the list it opens. */
  value: ReactNode;
  to: string;
  /** What the number means in words, read by screen readers as the link's name. */
  ariaLabel: string;
  /** The line under the number: the split, the total or the zero state. */
  foot: ReactNode;
}

function Figure({ label, icon, color, value, to, ariaLabel, foot }: FigureProps) {
  const { token } = theme.useToken();
  return (
    <Card size="small" variant="borderless" style={{ height: '100%', background: token.colorFillQuaternary }}>
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap={token.marginXS}>
          <span style={{ color, fontSize: token.fontSizeLG }}>{icon}</span>
          <Typography.Text type="secondary">{label}</Typography.Text>
        </Flex>
        <Link to={to} aria-label={ariaLabel} style={{ fontSize: token.fontSizeHeading3, fontWeight: token.fontWeightStrong, color, lineHeight: token.lineHeightHeading3 }}>
          {value}
        </Link>
        <div style={{ minHeight: token.lineHeight * token.fontSize }}>{foot}</div>
      </Flex>
    </Card>
  );
}

/** "硬件 2 · 软件 1", each a link to its tab of the member list in `state`. */
function SplitLinks({ split, state, label }: { split: ByMemberType; state: string; label: string }) {
  const { token } = theme.useToken();
  return (
    <Flex gap={token.marginSM} wrap>
      <Link to={memberListPath(ROUTER_TYPE.hardware, state)} aria-label={`${label} ${fmt(overviewMessages.overviewOfHardware, { n: split.hardware })}`}>
        {fmt(overviewMessages.overviewOfHardware, { n: split.hardware })}
      </Link>
      <Link to={memberListPath(ROUTER_TYPE.software, state)} aria-label={`${label} ${fmt(overviewMessages.overviewOfSoftware, { n: split.software })}`}>
        {fmt(overviewMessages.overviewOfSoftware, { n: split.software })}
      </Link>
    </Flex>
  );
}

/** The tab a total opens: hardware unless only software members are counted. */
const tabOf = (split: ByMemberType) => (split.hardware === 0 && split.software > 0 ? ROUTER_TYPE.software : ROUTER_TYPE.hardware);

function Figures({ o }: { o: Overview }) {
  const { token } = theme.useToken();
  const none = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;
  const online = (type: typeof ROUTER_TYPE.hardware | typeof ROUTER_TYPE.software, label: string, color: string, icon: ReactNode) => {
    const kind = type === ROUTER_TYPE.hardware ? 'hardware' : 'software';
    const total = o.members[kind];
    return (
      <Figure
        key={kind}
        label={label}
        icon={icon}
        color={color}
        value={o.online[kind]}
        to={memberListPath(type, MEMBER_STATE.online)}
        ariaLabel={`${label} ${o.online[kind]}`}
        foot={
          total === 0 ? (
            none(overviewMessages.overviewNoMembers)
          ) : (
            <Link to={memberListPath(type)} aria-label={`${label} ${fmt(overviewMessages.overviewOnlineOf, { n: total })}`}>
              {fmt(overviewMessages.overviewOnlineOf, { n: total })}
            </Link>
          )
        }
      />
    );
  };
  /** Members in a state (behind, offline a day): the total opens the list in that state, the split its tabs. */
  const inState = (key: string, label: string, icon: ReactNode, color: string, split: ByMemberType, state: string, noneText: string) => {
    const total = split.hardware + split.software;
    return (
      <Figure
        key={key}
        label={label}
        icon={icon}
        color={color}
        value={total}
        to={memberListPath(tabOf(split), state)}
        ariaLabel={`${label} ${total}`}
        foot={total === 0 ? none(noneText) : <SplitLinks split={split} state={state} label={label} />}
      />
    );
  };
  const figures = [
    <Figure
      key="networks"
      label={overviewMessages.overviewNetworks}
      icon={<ApartmentOutlined />}
      color={FIGURE_COLORS.networks}
      value={o.networks}
      to="/network/lists"
      ariaLabel={`${overviewMessages.overviewNetworks} ${o.networks}`}
      foot={o.networks === 0 ? none(overviewMessages.overviewNoNetworks) : null}
    />,
    online(ROUTER_TYPE.hardware, overviewMessages.overviewHardware, FIGURE_COLORS.hardware, <HddOutlined />),
    online(ROUTER_TYPE.software, overviewMessages.overviewSoftware, FIGURE_COLORS.software, <DesktopOutlined />),
    inState('behind', overviewMessages.overviewBehind, <SyncOutlined />, FIGURE_COLORS.behind, o.behind, MEMBER_STATE.behind, overviewMessages.overviewAllCurrent),
    inState('offline', overviewMessages.overviewOfflineDay, <ClockCircleOutlined />, FIGURE_COLORS.offline, o.offline_day, MEMBER_STATE.offlineDay, overviewMessages.overviewNoneOffline),
    <Figure
      key="alerts"
      label={overviewMessages.overviewAlerts}
      icon={<AlertOutlined />}
      // Red calls for attention: only when there are alerts; none is the ordinary state.
      color={o.alerts > 0 ? FIGURE_COLORS.alerts : token.colorText}
      value={o.alerts}
      to={messagesOfTypePath('alert')}
      ariaLabel={`${overviewMessages.overviewAlerts} ${o.alerts}`}
      foot={o.alerts === 0 ? none(overviewMessages.overviewNoAlerts) : null}
    />,
  ];
  return (
    <Row gutter={[token.marginSM, token.marginSM]}>
      {figures.map((f) => (
        <Col key={f.key} xs={12} md={8} xl={4}>
          {f}
        </Col>
      ))}
    </Row>
  );
}

function QuotaLine({ label, used, max, to }: { label: string; used: number; max: number; to: string }) {
  const { token } = theme.useToken();
  const percent = max > 0 ? Math.min(PERCENT, Math.round((used / max) * PERCENT)) : PERCENT;
  return (
    <div>
      <Flex justify="space-between" gap={token.marginXS}>
        <Typography.Text type="secondary">{label}</Typography.Text>
        <Link to={to} aria-label={`${label} ${used}/${max}`}>
          {used}/{max}
        </Link>
      </Flex>
      <Progress aria-label={label} percent={percent} showInfo={false} size="small" status={percent >= QUOTA_WARN_PERCENT ? 'exception' : 'normal'} />
    </div>
  );
}

function Quota({ q }: { q: Overview['quota'] }) {
  const { token } = theme.useToken();
  return (
    <Row gutter={[token.marginLG, token.marginXS]}>
      <Col xs={24} md={12} xl={6}>
        <QuotaLine label={overviewMessages.overviewQuotaMembers} used={q.members.used} max={q.members.max} to="/router/lists" />
      </Col>
      <Col xs={24} md={12} xl={6}>
        <QuotaLine label={overviewMessages.overviewQuotaNetworked} used={q.networked.used} max={q.networked.max} to="/network/lists" />
      </Col>
      {q.ram && (
        <Col xs={24} md={12} xl={6}>
          <QuotaLine label={overviewMessages.overviewQuotaRam} used={q.ram.used} max={q.ram.max} to="/ram/index" />
        </Col>
      )}
      <Col xs={24} md={12} xl={6}>
        <Flex justify="space-between" gap={token.marginXS}>
          <Typography.Text type="secondary">{overviewMessages.overviewQuotaCenters}</Typography.Text>
          <Typography.Text>{q.centers}</Typography.Text>
        </Flex>
      </Col>
    </Row>
  );
}

/**
 * The live overview under the dashboard's tiles (issue 18): one call, polled at the console's status
 * interval while the page is open (TanStack Query stops when the page goes or the tab is hidden).
 * Each figure links to the filtered list behind it. A failed poll keeps the last figures; with none
 * yet, an error with a retry shows.
 */
export function OverviewPanel() {
  const { token } = theme.useToken();
  const q = useApiQuery(dashboardOverview, undefined, { refetchInterval: LIMITS.statusPollMs, refetchIntervalInBackground: false, quiet: true });
  const o = q.data?.data;
  let body: ReactNode;
  if (o) {
    body = (
      <Flex vertical gap={token.marginMD}>
        <Figures o={o} />
        <div>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {overviewMessages.overviewQuota}
          </Typography.Title>
          <Quota q={o.quota} />
        </div>
      </Flex>
    );
  } else if (q.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={q.error.message || overviewMessages.overviewLoadFailed}
        action={
          <Button size="small" onClick={() => void q.refetch()}>
            {overviewMessages.overviewRetry}
          </Button>
        }
      />
    );
  } else {
    body = <Skeleton active paragraph={{ rows: 4 }} />;
  }
  return (
    <Card
      variant="borderless"
      role="region"
      aria-label={overviewMessages.overviewTitle}
      title={overviewMessages.overviewTitle}
      extra={<Typography.Text type="secondary">{fmt(overviewMessages.overviewRefresh, { n: LIMITS.statusPollMs / MS_PER_SECOND })}</Typography.Text>}
      aria-busy={q.isFetching}
    >
      {body}
    </Card>
  );
}
