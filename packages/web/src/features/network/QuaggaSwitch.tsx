import { fmt, type NetworkMember, networkMessages, networkSettingsUiMessages, setQuagga } from '@hublink/contract';
import { Popconfirm, Switch } from 'antd';
import { useNetworkMutation } from './api';

/** A member's dynamic routing (spec 2 §4): toggles 0 to 1 or 1 to 0 after a confirmation. */
export function QuaggaSwitch({ networkNumber, member }: { networkNumber: string; member: NetworkMember }) {
  const set = useNetworkMutation(setQuagga);
  const on = member.quagga === 1;
  return (
    <Popconfirm
      title={fmt(on ? networkSettingsUiMessages.netSetQuaggaOff : networkSettingsUiMessages.netSetQuaggaOn, { name: member.router_name })}
      onConfirm={() => set.mutateAsync({ network_number: networkNumber, router_name: member.router_name, enable: on ? 0 : 1 })}
    >
      <Switch
        checked={on}
        loading={set.isPending}
        checkedChildren={networkMessages.networkOn}
        unCheckedChildren={networkMessages.networkOff}
        aria-label={fmt(networkSettingsUiMessages.netSetQuaggaSwitch, { name: member.router_name })}
      />
    </Popconfirm>
  );
}
