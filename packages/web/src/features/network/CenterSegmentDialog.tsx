import { CODE, editCenterGateway, fmt, isNetworkAddress, LIMITS, type NetworkMember, networkMessages, networkSegmentsMessages, segmentFields, segmentsOverlap, type SegmentValue } from '@hublink/contract';
import { Divider, Flex, Form, Input, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { SEGMENT_MASK_OPTIONS, text, zodRule } from './segmentForm';

type Key = 'router_network' | 'software_network';
interface Fields {
  gateway?: string;
  mask?: number;
}
type Values = Record<Key, Fields | undefined>;

const PARTS: { key: Key; label: string }[] = [
  { key: 'router_network', label: networkSegmentsMessages.segUiRouterSegment },
  { key: 'software_network', label: networkSegmentsMessages.segUiSoftwareSegmentOptional },
];

/** The center with its note, as the member carries it on its segments (center_router_name_note). */
const nameWithNote = (m: NetworkMember) => {
  const note = m.gateway.router?.center_router_name_note ?? m.gateway.software?.center_router_name_note ?? m.note;
  return note ? fmt(networkMessages.networkNameWithNote, { name: m.router_name, note }) : m.router_name;
};

/** The network address of its mask (网段格式设置错误). */
const formatRule =
  (key: Key): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_, v: unknown) => {
      const mask = getFieldValue([key, 'mask']) as number | undefined;
      if (mask !== undefined && segmentFields.gateway.safeParse(text(v)).success && !isNetworkAddress(text(v), mask)) throw new Error(networkSegmentsMessages.segGatewayFormat);
    },
  });

/** The software segment does not overlap the hardware one. */
const apartRule: Rule = ({ getFieldValue }) => ({
  validator: async (_, v: unknown) => {
    const r = getFieldValue('router_network') as Fields | undefined;
    const mask = getFieldValue(['software_network', 'mask']) as number | undefined;
    if (!r?.gateway || r.mask === undefined || mask === undefined) return;
    if (segmentsOverlap({ gateway: text(r.gateway), mask: r.mask }, { gateway: text(v), mask })) throw new Error(networkSegmentsMessages.segSoftwareSame);
  },
});

const shown = (s: SegmentValue | null): Fields => ({ gateway: s?.gateway ?? '', mask: s?.mask });

/** The software segment is optional (spec 2 §5): its rules apply once a gateway is typed. */
const whenGiven =
  (rule: Rule): Rule =>
  (form) => {
    const inner = typeof rule === 'function' ? rule(form) : rule;
    return {
      validator: async (r, v: unknown) => {
        if (text(form.getFieldValue(['software_network', 'gateway'])) === '') return;
        await inner.validator?.(r, v, () => undefined);
      },
    };
  };

/**
 * 中心网段 of a center (spec 2 §5): the VPN segment of its hardware clients (network_gateway, required:
 * 请输入网段) and, optionally, of its software clients, each a network address (请输入正确的网段,
 * 网段格式设置错误) with a mask of 16 to 24. The title names the center with its note
 * (center_router_name_note). The server also keeps them apart from the network's other segments and IP pools.
 */
export function CenterSegmentDialog({ networkNumber, member, onClose }: { networkNumber: string; member: NetworkMember | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const edit = useNetworkMutation(editCenterGateway);
  const initial: Values = { router_network: shown(member?.gateway.router ?? null), software_network: shown(member?.gateway.software ?? null) };
  /** What saving sends (without network_number), or null when the form is the saved one. */
  const bodyOf = (v: Values, name: string) => {
    const segment = (f: Fields | undefined) => ({ gateway: text(f?.gateway), mask: f?.mask ?? 0 });
    const router = segment(v.router_network);
    // No software segment: null (the server leaves it to the network's pool).
    const software = text(v.software_network?.gateway) === '' ? null : segment(v.software_network);
    const before = [segment(initial.router_network), text(initial.software_network?.gateway) === '' ? null : segment(initial.software_network)];
    if (JSON.stringify([router, software]) === JSON.stringify(before)) return null;
    return { router_name: name, router_network: router, software_network: software };
  };
  const submit = async (v: Values) => {
    const body = bodyOf(v, member!.router_name);
    if (body === null) return true;
    const env = await edit.mutateAsync({ network_number: networkNumber, ...body });
    return env.code === CODE.ok;
  };
  // Until the fields have mounted, the watch holds the closed form's {} (not the saved values): nothing is previewed then.
  const editing = Form.useWatch([], form) as Values | undefined;
  const editedBody = editing?.router_network === undefined || member === null ? null : bodyOf(editing, member.router_name);
  const previewed = editedBody !== null && editCenterGateway.body.safeParse({ network_number: networkNumber, ...editedBody }).success ? editedBody : null;
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={fmt(networkSegmentsMessages.segUiCenterSegmentTitle, { name: member ? nameWithNote(member) : '' })} open={member !== null} onClose={onClose} onSubmit={submit} initialValues={initial}>
      {PARTS.map(({ key, label }) => (
        <div key={key} role="group" aria-label={label}>
          <Divider titlePlacement="start">{label}</Divider>
          <Flex gap={12} wrap>
            <Form.Item
              name={[key, 'gateway']}
              label={networkSegmentsMessages.segUiGateway}
              rules={key === 'router_network' ? [zodRule(segmentFields.gateway), formatRule(key)] : [whenGiven(zodRule(segmentFields.gateway)), formatRule(key), apartRule]}
              dependencies={[[key, 'mask'], ...(key === 'software_network' ? [['router_network', 'gateway'], ['router_network', 'mask']] : [])]}
              style={{ flex: '1 1 200px' }}
            >
              <Input aria-label={`${label} ${networkSegmentsMessages.segUiGateway}`} inputMode="decimal" placeholder="10.8.0.0" />
            </Form.Item>
            <Form.Item
              name={[key, 'mask']}
              label={networkSegmentsMessages.segUiMask}
              rules={key === 'router_network' ? [zodRule(segmentFields.mask)] : [whenGiven(zodRule(segmentFields.mask))]}
              dependencies={key === 'software_network' ? [[key, 'gateway']] : undefined}
              style={{ flex: '0 0 120px' }}
            >
              <Select options={SEGMENT_MASK_OPTIONS} virtual={false} aria-label={`${label} ${networkSegmentsMessages.segUiMask}`} placeholder={networkSegmentsMessages.segUiMask} />
            </Form.Item>
          </Flex>
        </div>
      ))}
      <ChangePreview networkNumber={networkNumber} path={editCenterGateway.path} body={previewed} />
    </FormDialog>
  );
}
