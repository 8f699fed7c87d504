import type { NetworkDetail } from '@hublink/contract';
import { CenterLinkDialog } from './CenterLinkDialog';
import { InterconnectDialog } from './InterconnectDialog';
import { PointLinkDialog } from './PointLinkDialog';
import { PrefixDialog } from './PrefixDialog';

export type SegmentDialog = 'prefix' | 'interconnect' | 'center_link' | 'point_link';

/** The segment and link dialogs of the 配置 menu; `open` names the one shown. */
export function SegmentDialogs({ detail, open, onClose }: { detail: NetworkDetail; open: string | null; onClose: () => void }) {
  return (
    <>
      <PrefixDialog detail={detail} open={open === 'prefix'} onClose={onClose} />
      <InterconnectDialog detail={detail} open={open === 'interconnect'} onClose={onClose} />
      <CenterLinkDialog detail={detail} open={open === 'center_link'} onClose={onClose} />
      <PointLinkDialog detail={detail} open={open === 'point_link'} onClose={onClose} />
    </>
  );
}
