import { type NetworkMember, networkSegmentsMessages } from '@hublink/contract';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { CenterSegmentDialog } from './CenterSegmentDialog';
import { FixedPortDialog } from './FixedPortDialog';

/** Which center's dialog is open. */
type Open = { kind: 'fixed_port' | 'segment'; member: NetworkMember } | null;

/** A center's own settings, as actions on its row: its fixed ports and its VPN segments (中心网段). */
export function useCenterActions(networkNumber: string) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const actions = (m: NetworkMember) =>
    m.member_type !== 'center' ? null : (
      <Space size={0} wrap>
        <Button type="link" size="small" aria-label={`${networkSegmentsMessages.segUiFixedPort} ${m.router_name}`} onClick={() => setOpen({ kind: 'fixed_port', member: m })}>
          {networkSegmentsMessages.segUiFixedPort}
        </Button>
        <Button type="link" size="small" aria-label={`${networkSegmentsMessages.segUiCenterSegment} ${m.router_name}`} onClick={() => setOpen({ kind: 'segment', member: m })}>
          {networkSegmentsMessages.segUiCenterSegment}
        </Button>
      </Space>
    );
  const dialogs = (
    <>
      <FixedPortDialog networkNumber={networkNumber} member={open?.kind === 'fixed_port' ? open.member : null} onClose={close} />
      <CenterSegmentDialog networkNumber={networkNumber} member={open?.kind === 'segment' ? open.member : null} onClose={close} />
    </>
  );
  return { actions, dialogs };
}
