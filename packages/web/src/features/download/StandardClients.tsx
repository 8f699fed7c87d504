import { AndroidFilled, AppleFilled, ExportOutlined, LinuxOutlined, WindowsFilled } from '@ant-design/icons';
import { CM } from '@hublink/contract';
import { Button, Card, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

interface StandardClient {
  key: string;
  name: string;
  note: string;
  platforms: ReactNode[];
  /** Its makers' own page (opened in the visitor's browser); none for a system package. */
  href?: string;
}

/** Clients that need nothing from us but the member's profile (issue 30, docs/clients.md). */
const CLIENTS: StandardClient[] = [
  {
    key: 'connect',
    name: CM.standardClientConnect,
    note: CM.standardClientConnectNote,
    platforms: [<WindowsFilled key="w" />, <AppleFilled key="a" />, <AndroidFilled key="d" />],
    href: 'https://openvpn.net/client/',
  },
  { key: 'tunnelblick', name: CM.standardClientTunnelblick, note: CM.standardClientTunnelblickNote, platforms: [<AppleFilled key="a" />], href: 'https://tunnelblick.net/' },
  { key: 'linux', name: CM.standardClientLinux, note: CM.standardClientLinuxNote, platforms: [<LinuxOutlined key="l" />] },
];

/** The download page's standard OpenVPN clients: below the operator's releases, or alone when none is published. */
export function StandardClients({ only }: { only: boolean }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={token.marginSM} style={{ marginTop: only ? 0 : token.marginLG }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {CM.standardClientsTitle}
      </Typography.Title>
      <Typography.Text type="secondary">{only ? `${CM.standardClientsOnly}${CM.standardClientsIntro}` : CM.standardClientsIntro}</Typography.Text>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: token.margin }}>
        {CLIENTS.map((c) => (
          <Card key={c.key} variant="borderless" style={{ height: '100%' }} styles={{ body: { height: '100%' } }}>
            <Flex vertical gap={token.marginSM} style={{ height: '100%' }}>
              <Flex align="center" gap={token.marginSM}>
                <span style={{ fontSize: 22, color: token.colorTextSecondary, display: 'flex', gap: 6 }}>{c.platforms}</span>
                <Typography.Title level={5} style={{ margin: 0 }}>
                  {c.name}
                </Typography.Title>
              </Flex>
              <Typography.Paragraph type="secondary" style={{ flex: 1, margin: 0, wordBreak: 'break-word' }}>
                {c.note}
              </Typography.Paragraph>
              {c.href && (
                <Button block icon={<ExportOutlined />} href={c.href} target="_blank" rel="noopener noreferrer">
                  {CM.standardClientGet}
                </Button>
              )}
            </Flex>
          </Card>
        ))}
      </div>
    </Flex>
  );
}
