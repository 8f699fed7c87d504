import { CopyOutlined, DownloadOutlined, ExportOutlined, QrcodeOutlined } from '@ant-design/icons';
import { BM, CM, CODE, fmt, LIMITS, selfProfile, selfProfileLink, type SelfProfileLink, SM } from '@hublink/contract';
import { Button, Card, Flex, Input, QRCode, Space, Typography, theme } from 'antd';
import { useState } from 'react';
import { toast } from '../../api/notify';
import { selfCall, selfDownload } from './selfApi';

interface Props {
  network: { network_number: string; network_name: string };
  routerName: string;
  /** A refusal that ended the session (the page goes back to its sign-in form). */
  onRefused: (code: number, msg: string) => void;
}

/** One of the member's networks: its profile to download, and a single-use link with its QR code for a phone. */
export function NetworkCard({ network, routerName, onRefused }: Props) {
  const { token } = theme.useToken();
  const [link, setLink] = useState<SelfProfileLink | null>(null);
  const [busy, setBusy] = useState<'' | 'file' | 'link'>('');

  const refused = (code: number, msg: string) => {
    if (code >= CODE.tokenInvalid) onRefused(code, msg);
    else toast.error(msg || BM.dataError);
  };

  const download = async () => {
    setBusy('file');
    const env = await selfDownload(selfProfile, { network_number: network.network_number }, `${routerName}-${network.network_number}.ovpn`);
    setBusy('');
    if (env) refused(env.code, env.msg);
  };

  const makeLink = async () => {
    setBusy('link');
    const env = await selfCall(selfProfileLink, { body: { network_number: network.network_number } });
    setBusy('');
    if (env.code === CODE.ok && env.data) setLink(env.data);
    else refused(env.code, env.msg);
  };

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      toast.success(SM.selfLinkCopied);
    } catch {
      toast.error(SM.selfLinkCopyFailed);
    }
  };

  return (
    <Card variant="borderless" role="region" aria-label={network.network_name} style={{ height: '100%' }}>
      <Flex vertical gap={token.marginSM}>
        <div>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {network.network_name}
          </Typography.Title>
          <Typography.Text type="secondary" copyable>
            {network.network_number}
          </Typography.Text>
        </div>
        <Flex gap={token.marginXS} wrap>
          <Button type="primary" icon={<DownloadOutlined />} loading={busy === 'file'} onClick={() => void download()}>
            {CM.profileDownload}
          </Button>
          <Button icon={<QrcodeOutlined />} loading={busy === 'link'} onClick={() => void makeLink()}>
            {link ? SM.selfQrRenew : SM.selfQrNew}
          </Button>
        </Flex>
        {link && (
          <Flex gap={token.margin} wrap align="flex-start" role="group" aria-label={fmt(SM.selfQrFor, { name: network.network_name })}>
            <QRCode value={link.url} size={176} bordered style={{ flex: 'none' }} />
            <Flex vertical gap={token.marginXS} style={{ flex: '1 1 220px', minWidth: 0 }}>
              <Typography.Text strong>{SM.selfQrTitle}</Typography.Text>
              <Typography.Text type="secondary">{fmt(SM.selfQrHint, { n: Math.round(LIMITS.selfLinkSeconds / 60) })}</Typography.Text>
              <Space.Compact style={{ width: '100%' }}>
                <Input readOnly value={link.url} aria-label={SM.selfLinkCopy} />
                <Button icon={<CopyOutlined />} onClick={() => void copy()}>
                  {SM.selfLinkCopy}
                </Button>
              </Space.Compact>
              <Button type="link" icon={<ExportOutlined />} href={link.import_url} style={{ paddingInline: 0, alignSelf: 'flex-start' }}>
                {SM.selfImportInApp}
              </Button>
            </Flex>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
