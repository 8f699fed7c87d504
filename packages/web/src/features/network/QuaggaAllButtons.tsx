import { disableQuagga, enableQuagga, networkSettingsUiMessages } from '@hublink/contract';
import { Button, Popconfirm, Space } from 'antd';
import { useNetworkMutation } from './api';
import { ChangePreview, PREVIEW_POPCONFIRM_STYLES } from './ChangePreview';

/** One-click enable and disable of every member's dynamic routing (spec 2 §4), each after a confirmation that previews it. */
export function QuaggaAllButtons({ networkNumber }: { networkNumber: string }) {
  const enable = useNetworkMutation(enableQuagga);
  const disable = useNetworkMutation(disableQuagga);
  // The previews are mounted while their confirmation is open only (destroyOnHidden): asked when it opens.
  return (
    <Space size={4}>
      <Popconfirm
        title={networkSettingsUiMessages.netSetQuaggaAllOnConfirm}
        description={<ChangePreview networkNumber={networkNumber} path={enableQuagga.path} body={{}} />}
        destroyOnHidden
        styles={PREVIEW_POPCONFIRM_STYLES}
        onConfirm={() => enable.mutateAsync({ network_number: networkNumber })}
      >
        <Button size="small">{networkSettingsUiMessages.netSetQuaggaAllOn}</Button>
      </Popconfirm>
      <Popconfirm
        title={networkSettingsUiMessages.netSetQuaggaAllOffConfirm}
        description={<ChangePreview networkNumber={networkNumber} path={disableQuagga.path} body={{}} />}
        destroyOnHidden
        styles={PREVIEW_POPCONFIRM_STYLES}
        onConfirm={() => disable.mutateAsync({ network_number: networkNumber })}
      >
        <Button size="small">{networkSettingsUiMessages.netSetQuaggaAllOff}</Button>
      </Popconfirm>
    </Space>
  );
}
