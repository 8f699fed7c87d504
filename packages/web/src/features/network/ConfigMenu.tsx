import { DownOutlined } from '@ant-design/icons';
import { M, resendConfig, type NetworkDetail } from '@hublink/contract';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { useState } from 'react';
import { useUser } from '../../app/user';
import { useNetworkMutation } from './api';
import { CiphersDialog } from './CiphersDialog';
import { configEntries, LIVE_ENTRIES } from './configMenu';
import { DialModeDialog } from './DialModeDialog';
import { DnsDialog } from './DnsDialog';
import { RoutingDialog } from './RoutingDialog';
import { SegmentDialogs, type SegmentDialog } from './SegmentDialogs';

type Dialog = 'routing' | 'ciphers' | 'mode' | 'dns' | SegmentDialog;

/**
 * The 配置 menu: the network's configuration dialogs. Line main/backup, ciphers, dial mode, DNS and
 * resending the config work for a user with the edit right; the others are not built yet (即将上线).
 */
export function ConfigMenu({ detail, canEdit }: { detail: NetworkDetail; canEdit: boolean }) {
  const user = useUser();
  const { modal } = App.useApp();
  const [open, setOpen] = useState<Dialog | null>(null);
  const resend = useNetworkMutation(resendConfig);
  const items = configEntries(detail, user?.auth).map((e) => {
    const live = LIVE_ENTRIES.has(e.key);
    return {
      key: e.key,
      disabled: !live || !canEdit,
      label: live ? (
        <span>{e.label}</span>
      ) : (
        <Tooltip title={M.networkSoon} placement="left">
          <span>{e.label}</span>
        </Tooltip>
      ),
    };
  });
  const onClick = ({ key }: { key: string }) => {
    if (key === 'resend') {
      modal.confirm({
        title: M.netSetResend,
        content: M.netSetResendConfirm,
        onOk: () => resend.mutateAsync({ network_number: detail.network_number }),
      });
    } else setOpen(key as Dialog);
  };
  const close = () => setOpen(null);
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button>
          {M.networkConfig} <DownOutlined />
        </Button>
      </Dropdown>
      {canEdit && (
        <>
          <RoutingDialog detail={detail} open={open === 'routing'} onClose={close} />
          <CiphersDialog detail={detail} open={open === 'ciphers'} onClose={close} />
          <DialModeDialog detail={detail} open={open === 'mode'} onClose={close} />
          <DnsDialog detail={detail} open={open === 'dns'} onClose={close} />
          <SegmentDialogs detail={detail} open={open} onClose={close} />
        </>
      )}
    </>
  );
}
