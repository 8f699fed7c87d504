import { CODE, DIAL_MODE, fmt, LIMITS, type NetworkDetail, networkMessages, networkSettingsUiMessages, setSoftwareMode } from '@hublink/contract';
import { Form, Radio, Select } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useAllMembers } from './allMembers';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { modeLabel } from './labels';

interface Values {
  router_name?: string;
  mode?: number;
}

const MODES = [DIAL_MODE.default, DIAL_MODE.centerFirst, DIAL_MODE.popFirst];

/** 拨号模式 of one member (spec 2 §3): 1 default, 2 center first, 3 POP first; picking a member shows its mode. */
export function DialModeDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = useNetworkMutation(setSoftwareMode);
  const all = useAllMembers(detail, open);
  const pick = (name: string) => {
    const m = all.members.find((x) => x.router_name === name);
    if (m && (MODES as number[]).includes(m.mode)) form.setFieldValue('mode', m.mode);
  };
  const name = Form.useWatch('router_name', form);
  const mode = Form.useWatch('mode', form);
  const member = all.members.find((x) => x.router_name === name);
  const previewed = member === undefined || mode === undefined || mode === member.mode ? null : { router_name: member.router_name, mode };
  const submit = async (v: Values) => {
    const env = await set.mutateAsync({ network_number: detail.network_number, router_name: v.router_name ?? '', mode: v.mode ?? 0 });
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkSettingsUiMessages.netSetModeTitle} open={open} onClose={onClose} onSubmit={submit}>
      <Form.Item name="router_name" label={networkSettingsUiMessages.netSetModeMember} rules={[{ required: true, message: networkSettingsUiMessages.netSetModeMemberPick }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={networkSettingsUiMessages.netSetModeMemberPick}
          onChange={pick}
          loading={all.loading}
          options={all.members.map((m) => ({ value: m.router_name, label: m.note ? fmt(networkMessages.networkNameWithNote, { name: m.router_name, note: m.note }) : m.router_name }))}
        />
      </Form.Item>
      <Form.Item name="mode" label={networkSettingsUiMessages.netSetMode} rules={rulesOf(setSoftwareMode.body, 'mode')}>
        <Radio.Group options={MODES.map((mode) => ({ value: mode, label: modeLabel(mode) }))} />
      </Form.Item>
      <ChangePreview networkNumber={detail.network_number} path={setSoftwareMode.path} body={previewed} />
    </FormDialog>
  );
}
