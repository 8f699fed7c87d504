import { fmt, type NetworkMember, networkMessages, networkSettingsUiMessages, setQuagga } from '@hublink/contract';
import { Popconfirm, Switch } from 'antd';
import { useNetworkMutation } from './api';
import { ChangePreview, PREVIEW_POPCONFIRM_STYLES } from './ChangePreview';

/** A member's dynamic routing (spec 2 §4): toggles 0 to 1 or 1 to 0 after a confirmation that previews the change. */
export function QuaggaSwitch({ networkNumber, member }: { networkNumber: string; member: NetworkMember }) {
  const set = useNetworkMutation(setQuagga);
  const on = member.quagga === 1;
  const enable = on ? 0 : 1;
  return (
    <Popconfirm
      title={fmt(on ? networkSettingsUiMessages.netSetQuaggaOff : networkSettingsUiMessages.netSetQuaggaOn, { name: member.router_name })}
      // Mounted while the confirmation is open only: the preview is asked when it opens.
      description={<ChangePreview networkNumber={networkNumber} path={setQuagga.path} body={{ router_name: member.router_name, enable }} />}
      destroyOnHidden
      styles={PREVIEW_POPCONFIRM_STYLES}
      onConfirm={() => set.mutateAsync({ network_number: networkNumber, router_name: member.router_name, enable })}
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
