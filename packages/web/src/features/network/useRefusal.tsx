import { fmt, networkMessages } from '@hublink/contract';
import { App } from 'antd';
import { useCallback } from 'react';
import { toast } from '../../api/notify';
import type { Refusal } from './memberPicker';
import { warnNoUpgrade } from './upgrade';

/**
 * Shows a refusal of spec 2 §5: the quota as a dialog offering 立即升级 (which only warns) or 暂不升级,
 * the others as warnings.
 */
export function useShowRefusal() {
  const { modal } = App.useApp();
  return useCallback(
    (r: Refusal) => {
      if (r.kind === 'quota') {
        modal.confirm({
          title: networkMessages.networkQuotaTitle,
          content: fmt(networkMessages.networkQuotaFull, { n: r.n }),
          okText: networkMessages.networkUpgradeNow,
          cancelText: networkMessages.networkUpgradeLater,
          onOk: warnNoUpgrade,
        });
      } else if (r.kind === 'center') {
        toast.warning(fmt(networkMessages.networkCenterLimit, { n: r.n }));
      } else {
        toast.warning(networkMessages.networkSoftwareCenter);
      }
    },
    [modal],
  );
}
