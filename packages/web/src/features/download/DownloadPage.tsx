import { AndroidFilled, AppleFilled, DownloadOutlined, ExportOutlined, LinuxOutlined, WindowsFilled } from '@ant-design/icons';
import { BM, CLIENT_PLATFORMS, type ClientPlatform, documentMessages, DOWNLOADS, fmt, LINUX_PANELS, type LinuxReleaseItem, type ReleaseItem } from '@hublink/contract';
import { Button, Card, Empty, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { urlOf } from '../../api/client';
import { useBrand } from '../../session/brand';
import { PageContainer } from '../../components/PageContainer';
import { useReleases } from './api';
import { LinuxDialog } from './LinuxDialog';
import { detectArch, detectPlatform, PANEL_NAMES, PLATFORM_NAMES } from './platform';
import { ReleaseFacts } from './ReleaseFacts';
import { StandardClients } from './StandardClients';

const ICONS: Record<ClientPlatform, ReactNode> = {
  windows: <WindowsFilled />,
  macos: <AppleFilled />,
  android: <AndroidFilled />,
  ios: <AppleFilled />,
  linux: <LinuxOutlined />,
};

type Releases = Record<Exclude<ClientPlatform, 'linux'>, ReleaseItem | null> & { linux: LinuxReleaseItem[] };

/** Whether a platform has anything to download. */
const offers = (platform: ClientPlatform, data: Releases) => (platform === 'linux' ? data.linux.length > 0 : data[platform] !== null);

/** The Linux card: the newest version of each panel (the dialog tells the platforms apart). */
function LinuxVersions({ releases }: { releases: LinuxReleaseItem[] }) {
  return LINUX_PANELS.map((panel) => {
    const newest = releases.filter((r) => r.panel === panel).reduce<LinuxReleaseItem | null>((a, r) => (!a || r.create_time > a.create_time ? r : a), null);
    return (
      newest && (
        <Typography.Text key={panel} type="secondary">
          {fmt(documentMessages.downloadPanelVersion, { panel: PANEL_NAMES[panel], version: newest.version })}
        </Typography.Text>
      )
    );
  });
}

/**
 * /download (spec 3 §2): a card per client platform with its newest version, notes and a download
 * button; the visitor's platform, detected from the browser, comes first and is marked. Linux opens a
 * dialog choosing the version (cli or graphical panel) and the platform. Below them, or alone when the
 * operator has published none, the standard OpenVPN clients a member's profile works with (issue 30).
 * Open without sign-in.
 */
export default function DownloadPage() {
  const { token } = theme.useToken();
  const brand = useBrand();
  const releases = useReleases();
  const [linuxOpen, setLinuxOpen] = useState(false);
  const current = useMemo(() => detectPlatform(navigator.userAgent, navigator.maxTouchPoints), []);
  const arch = useMemo(() => detectArch(navigator.userAgent), []);
  const order = useMemo(() => (current ? [current, ...CLIENT_PLATFORMS.filter((p) => p !== current)] : [...CLIENT_PLATFORMS]), [current]);
  const data = releases.data?.data;
  const none = data && !CLIENT_PLATFORMS.some((p) => offers(p, data));

  const action = (platform: ClientPlatform, release: ReleaseItem | null, available: boolean) => {
    if (!available) return <Button disabled block>{documentMessages.downloadNoRelease}</Button>;
    if (platform === 'linux') {
      return (
        <Button type="primary" block icon={<DownloadOutlined />} onClick={() => setLinuxOpen(true)}>
          {documentMessages.downloadChoose}
        </Button>
      );
    }
    const href = urlOf(DOWNLOADS[platform]);
    return release?.source === 'url' ? (
      <Button type="primary" block icon={<ExportOutlined />} href={href} target="_blank" rel="noopener noreferrer">
        {documentMessages.downloadExternal}
      </Button>
    ) : (
      <Button type="primary" block icon={<DownloadOutlined />} href={href}>
        {documentMessages.downloadButton}
      </Button>
    );
  };

  return (
    <PageContainer
      card={false}
      description={documentMessages.downloadIntro}
      extra={brand.own && <Link to="/handbook">{documentMessages.downloadHelp}</Link>}
    >
      {releases.isLoading ? (
        <Card variant="borderless">
          <Skeleton active paragraph={{ rows: 4 }} />
        </Card>
      ) : !data ? (
        <Card variant="borderless">
          <Empty description={BM.dataError} />
        </Card>
      ) : none ? (
        <StandardClients only />
      ) : (
        <>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: token.margin }}>
            {order.map((platform) => {
              const release = platform === 'linux' ? null : data[platform];
              const available = offers(platform, data);
              const mine = platform === current;
              return (
                <Card
                  key={platform}
                  variant="borderless"
                  aria-label={PLATFORM_NAMES[platform]}
                  style={{ height: '100%', boxShadow: mine ? `0 0 0 2px ${token.colorPrimary}` : undefined }}
                  styles={{ body: { height: '100%' } }}
                >
                  <Flex vertical gap={token.marginSM} style={{ height: '100%' }}>
                    <Flex align="center" gap={token.marginSM}>
                      <span style={{ fontSize: 32, lineHeight: 1, color: mine ? token.colorPrimary : token.colorTextSecondary }}>{ICONS[platform]}</span>
                      <Typography.Title level={5} style={{ margin: 0 }}>
                        {PLATFORM_NAMES[platform]}
                      </Typography.Title>
                      {mine && <Tag color="blue">{documentMessages.downloadThisDevice}</Tag>}
                    </Flex>
                    <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 4 }}>
                      {platform === 'linux' ? <LinuxVersions releases={data.linux} /> : release && <ReleaseFacts release={release} notesRows={3} />}
                    </div>
                    {action(platform, release, available)}
                  </Flex>
                </Card>
              );
            })}
          </div>
          <StandardClients only={false} />
        </>
      )}
      {linuxOpen && data && <LinuxDialog releases={data.linux} arch={arch} onClose={() => setLinuxOpen(false)} />}
    </PageContainer>
  );
}
