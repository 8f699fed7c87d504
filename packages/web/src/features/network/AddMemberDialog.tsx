import { addNetworkMember, CODE, fmt, LIMITS, type MemberType, type NetworkDetail, networkMessages, routerMembers } from '@hublink/contract';
import { Form, Radio, Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useApiQuery } from '../../api/hooks';
import { FormDialog } from '../../components/FormDialog';
import { useAllMembers } from './allMembers';
import { useNetworkMutation } from './api';
import { positionLabel } from './labels';
import { canBeCenter } from './memberPicker';

interface Values {
  router_name: string;
  member_type: MemberType;
}

/** Adds one member that is not in the network yet, as a center (hardware only) or a point. */
export function AddMemberDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const all = useApiQuery(routerMembers, undefined, { enabled: open });
  const add = useNetworkMutation(addNetworkMember);
  const current = useAllMembers(detail, open);
  const inNetwork = useMemo(() => new Set(current.members.map((m) => m.router_name)), [current.members]);
  const candidates = useMemo(() => {
    const data = all.data?.data;
    return data ? [...data.router, ...data.app].filter((m) => !inNetwork.has(m.router_name)) : [];
  }, [all.data, inNetwork]);
  const chosen = Form.useWatch('router_name', form);
  const picked = candidates.find((m) => m.router_name === chosen);
  const software = picked !== undefined && !canBeCenter(picked);
  useEffect(() => {
    if (software) form.setFieldValue('member_type', 'point');
  }, [software, form]);

  const centers = detail.centers.length;
  const limit = detail.network_config.network_center_count;

  const submit = async (v: Values) => {
    const env = await add.mutateAsync({ network_number: detail.network_number, router_name: v.router_name, member_type: v.member_type });
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkMessages.networkAddMember} open={open} onClose={onClose} onSubmit={submit} initialValues={{ member_type: 'point' }}>
      <Form.Item name="router_name" label={networkMessages.networkMemberName} rules={[{ required: true, message: networkMessages.networkMemberPick }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={networkMessages.networkMemberPick}
          loading={all.isLoading || current.loading}
          options={candidates.map((m) => ({ value: m.router_name, label: m.note ? fmt(networkMessages.networkNameWithNote, { name: m.router_name, note: m.note }) : m.router_name }))}
        />
      </Form.Item>
      <Form.Item
        name="member_type"
        label={networkMessages.networkPosition}
        rules={[
          {
            validator: async (_, v: MemberType) => {
              if (v === 'center' && software) throw new Error(networkMessages.networkSoftwareCenter);
              if (v === 'center' && centers >= limit) throw new Error(fmt(networkMessages.networkCenterLimit, { n: limit }));
            },
          },
        ]}
      >
        <Radio.Group disabled={software}>
          <Radio value="center">{positionLabel('center')}</Radio>
          <Radio value="point">{positionLabel('point')}</Radio>
        </Radio.Group>
      </Form.Item>
    </FormDialog>
  );
}
