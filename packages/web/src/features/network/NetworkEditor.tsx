import { CODE, createNetwork, editNetwork, fmt, LIMITS, type MemberOption, type MemberType, type NetworkDetail, networkMessages, type NetworkQuota, renameNetwork } from '@hublink/contract';
import { Alert, Button, Col, Flex, Form, Input, Row, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../api/notify';
import { rulesOf } from '../../api/rules';
import { useNetworkMutation } from './api';
import { CandidatePanel } from './CandidatePanel';
import { networkDetailPath } from '../../components/pageLinks';
import { bodyOf, refusalOf, repositionRefusal, usedCount, type PickerBase, type Picked } from './memberPicker';
import { SelectedMembers } from './SelectedMembers';
import { useShowRefusal } from './useRefusal';

export interface NetworkEditorProps {
  quota: NetworkQuota;
  candidates: { router: MemberOption[]; app: MemberOption[] };
  /** The network being edited, with every member; none to create one. */
  network?: Pick<NetworkDetail, 'network_number' | 'network_name' | 'member'>;
}

interface Values {
  network_name: string;
}

/** The name and member pickers of /network/create and /network/edit (spec 2 §2, §5). */
export function NetworkEditor({ quota, candidates, network }: NetworkEditorProps) {
  const navigate = useNavigate();
  const showRefusal = useShowRefusal();
  const create = useNetworkMutation(createNetwork);
  const edit = useNetworkMutation(editNetwork);
  const [form] = Form.useForm<Values>();
  const [picked, setPicked] = useState<Picked[]>(() =>
    (network?.member ?? []).map((m) => ({ router_name: m.router_name, note: m.note, router_type: m.router_type, member_type: m.member_type })),
  );
  const base: PickerBase = useMemo(
    () => ({
      use: quota.network_router_use,
      count: quota.network_router_count,
      centers: quota.network_center_count,
      original: new Set((network?.member ?? []).map((m) => m.router_name)),
    }),
    [quota, network],
  );
  const chosen = new Set(picked.map((p) => p.router_name));
  const free = (list: MemberOption[]) => list.filter((m) => !chosen.has(m.router_name));

  const add = (m: MemberOption, position: MemberType) => {
    const refusal = refusalOf(base, picked, m, position);
    if (refusal) return showRefusal(refusal);
    setPicked([...picked, { router_name: m.router_name, note: m.note, router_type: m.router_type, member_type: position }]);
  };
  const reposition = (name: string, position: MemberType) => {
    const refusal = repositionRefusal(base, picked, name, position);
    if (refusal) return showRefusal(refusal);
    setPicked(picked.map((p) => (p.router_name === name ? { ...p, member_type: position } : p)));
  };
  const remove = (name: string) => setPicked(picked.filter((p) => p.router_name !== name));

  const submit = async ({ network_name }: Values) => {
    if (picked.length === 0) return toast.warning(networkMessages.networkMembersRequired);
    const body = { network_name: network_name.trim(), ...bodyOf(picked) };
    if (network) {
      const env = await edit.mutateAsync({ network_number: network.network_number, ...body });
      if (env.code === CODE.ok) void navigate(networkDetailPath(network.network_number));
    } else {
      const env = await create.mutateAsync(body);
      if (env.code === CODE.ok && env.data) void navigate(networkDetailPath(env.data.network_number));
    }
  };

  return (
    <Form<Values> form={form} layout="vertical" requiredMark={false} initialValues={{ network_name: network?.network_name ?? '' }} onFinish={(v) => void submit(v)}>
      <Form.Item name="network_name" label={networkMessages.networkColName} rules={rulesOf(renameNetwork.body, 'network_name')} style={{ maxWidth: 420 }}>
        <Input maxLength={LIMITS.networkNameMax} placeholder={networkMessages.networkNameRequired} showCount />
      </Form.Item>
      <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }}>
        <Tag color="blue" aria-label={networkMessages.networkUsage}>
          {fmt(networkMessages.networkUsed, { use: usedCount(base, picked), count: base.count })}
        </Tag>
        <Alert type="info" showIcon title={networkMessages.networkOverlapHint} style={{ flex: 1 }} />
      </Flex>
      <Row gutter={[12, 12]}>
        <Col xs={24} md={12} xl={7}>
          <CandidatePanel title={networkMessages.networkHardware} members={free(candidates.router)} onAdd={add} />
        </Col>
        <Col xs={24} md={12} xl={7}>
          <CandidatePanel title={networkMessages.networkSoftware} members={free(candidates.app)} onAdd={add} />
        </Col>
        <Col xs={24} xl={10}>
          <SelectedMembers picked={picked} onRemove={remove} onPosition={reposition} />
        </Col>
      </Row>
      <Flex gap={8} style={{ marginTop: 16 }}>
        <Button type="primary" htmlType="submit" loading={create.isPending || edit.isPending}>
          {networkMessages.networkSave}
        </Button>
        <Button onClick={() => void navigate(-1)}>{networkMessages.networkBack}</Button>
      </Flex>
    </Form>
  );
}
