import { DownOutlined } from '@ant-design/icons';
import { type NetworkDetail, networkMessages, networkSettingsUiMessages, POOL_DIALOG_DELAY_MS, resendConfig } from '@hublink/contract';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useUser } from '../../session/user';
import { useNetworkMutation } from './api';
import { ticketCreatePath } from './popLinks';
import { CiphersDialog } from './CiphersDialog';
import { configEntries } from './configMenu';
import { DialModeDialog } from './DialModeDialog';
import { DnsDialog } from './DnsDialog';
import { FrDialog, type PendingFr } from './FrDialog';
import { IpPoolDialog } from './IpPoolDialog';
import { RoutingDialog } from './RoutingDialog';
import { SegmentDialogs, type SegmentDialog } from './SegmentDialogs';
import { useLater } from './useLater';

type Dialog = 'routing' | 'ciphers' | 'mode' | 'dns' | 'fr' | 'segment' | SegmentDialog;

/**
 * The 配置 menu: the network's configuration dialogs, for a user with the edit right (others see the
 * entries disabled). Access POP opens the order wizard; resending the config asks first.
 */
export function ConfigMenu({ detail, canEdit }: { detail: NetworkDetail; canEdit: boolean }) {
  const user = useUser();
  const { modal } = App.useApp();
  const [open, setOpen] = useState<Dialog | null>(null);
  const resend = useNetworkMutation(resendConfig);
  const navigate = useNavigate();
  const later = useLater();
  const [pendingFr, setPendingFr] = useState<PendingFr | null>(null);
  // 423 on the POP resource config: the pool dialog for that resource opens 2.5 s after the warning (spec 2 §4).
  const needPool = (p: PendingFr) => later(POOL_DIALOG_DELAY_MS, () => {
    setPendingFr(p);
    setOpen('segment');
  });
  const items = configEntries(detail, user?.auth).map((e) => ({ key: e.key, disabled: !canEdit, label: <span>{e.label}</span> }));
  const onClick = ({ key }: { key: string }) => {
    if (key === 'resend') {
      modal.confirm({
        title: networkSettingsUiMessages.netSetResend,
        content: networkSettingsUiMessages.netSetResendConfirm,
        onOk: () => resend.mutateAsync({ network_number: detail.network_number }),
      });
    } else if (key === 'access_pop') {
      void navigate(ticketCreatePath(detail.network_number));
    } else {
      setPendingFr(null);
      setOpen(key as Dialog);
    }
  };
  const close = () => {
    setOpen(null);
    setPendingFr(null);
  };
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button>
          {networkMessages.networkConfig} <DownOutlined />
        </Button>
      </Dropdown>
      {canEdit && (
        <>
          <RoutingDialog detail={detail} open={open === 'routing'} onClose={close} />
          <CiphersDialog detail={detail} open={open === 'ciphers'} onClose={close} />
          <DialModeDialog detail={detail} open={open === 'mode'} onClose={close} />
          <DnsDialog detail={detail} open={open === 'dns'} onClose={close} />
          <SegmentDialogs detail={detail} open={open} onClose={close} />
          <FrDialog detail={detail} open={open === 'fr'} onClose={close} onNeedPool={needPool} />
          <IpPoolDialog networkNumber={detail.network_number} hasFr={detail.network_fr !== null} pending={pendingFr} open={open === 'segment'} onClose={close} />
        </>
      )}
    </>
  );
}
