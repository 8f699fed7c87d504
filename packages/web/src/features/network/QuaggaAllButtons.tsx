import { disableQuagga, enableQuagga, networkSettingsUiMessages } from '@hublink/contract';
import { Button, Popconfirm, Space } from 'antd';
import { useNetworkMutation } from './api';

/** One-click enable and disable of every member's dynamic routing (spec 2 §4), each after a confirmation. */
export function QuaggaAllButtons({ networkNumber }: { networkNumber: string }) {
  const enable = useNetworkMutation(enableQuagga);
  const disable = useNetworkMutation(disableQuagga);
  return (
    <Space size={4}>
      <Popconfirm title={networkSettingsUiMessages.netSetQuaggaAllOnConfirm} onConfirm={() => enable.mutateAsync({ network_number: networkNumber })}>
        <Button size="small">{networkSettingsUiMessages.netSetQuaggaAllOn}</Button>
      </Popconfirm>
      <Popconfirm title={networkSettingsUiMessages.netSetQuaggaAllOffConfirm} onConfirm={() => disable.mutateAsync({ network_number: networkNumber })}>
        <Button size="small">{networkSettingsUiMessages.netSetQuaggaAllOff}</Button>
      </Popconfirm>
    </Space>
  );
}
