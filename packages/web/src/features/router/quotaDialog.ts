import { fmt, networkMessages, routerMessages } from '@hublink/contract';
import { App } from 'antd';
import { useCallback } from 'react';
import { toast } from '../../api/notify';

/**
 * The member quota's refusal as spec 2 §5 shows it (最多支持N个成员… with 立即升级, which only says upgrading is
 * not available, and 暂不升级): the member list shows it instead of an add form when no place is left, as
 * the server would refuse the add (software and hardware members share the plan's count).
 */
export function useQuotaDialog() {
  const { modal } = App.useApp();
  return useCallback(
    (max: number) =>
      modal.confirm({
        title: networkMessages.networkQuotaTitle,
        content: fmt(routerMessages.memberQuotaFull, { n: max }),
        okText: networkMessages.networkUpgradeNow,
        cancelText: networkMessages.networkUpgradeLater,
        onOk: () => void toast.warning(networkMessages.networkNoUpgrade),
      }),
    [modal],
  );
}
