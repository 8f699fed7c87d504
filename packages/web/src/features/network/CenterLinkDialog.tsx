import { centerLinkIssues, CODE, fmt, isNetworkAddress, LIMITS, type NetworkDetail, networkSegmentsMessages, networkSettingsUiMessages, portField, publicIpField, ROUTING_TYPE, SEGMENT_LIMITS, segmentFields, setCenterLink } from '@hublink/contract';
import { App, Button, Flex, Form, Input, Radio, Select, Tag, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { SEGMENT_MASK_OPTIONS, text, zodRule } from './segmentForm';

interface Values {
  center_router_name?: string;
  public_ip?: string;
  public_port?: string;
  static_port?: string;
  gateway?: string;
  mask?: number;
  line_mode?: number;
}

const port = (v: unknown) => (text(v) === '' ? undefined : Number(text(v)));
const input = (v: Values) => ({
  center_router_name: v.center_router_name ?? '',
  public_ip: text(v.public_ip),
  public_port: port(v.public_port),
  static_port: port(v.static_port),
  gateway: text(v.gateway),
  mask: v.mask,
  line_mode: v.line_mode === ROUTING_TYPE.mainBackup ? ROUTING_TYPE.mainBackup : ROUTING_TYPE.dual,
});

/** The contract's rules for enabling (centerLinkIssues), each shown on the field it names, all at once. */
const linkRule =
  (field: keyof Values): Rule =>
  ({ getFieldsValue }) => ({
    validator: async () => {
      const issue = centerLinkIssues(input(getFieldsValue() as Values)).find((i) => i.path === field);
      if (issue) throw new Error(issue.message);
    },
  });
const GATEWAY_IP = segmentFields.gateway;
const gatewayRule: Rule = {
  validator: async (_, v: unknown) => {
    if (text(v) !== '' && !GATEWAY_IP.safeParse(text(v)).success) throw new Error(networkSegmentsMessages.segGatewayInvalid);
  },
};
const ALL: (keyof Values)[] = ['center_router_name', 'public_ip', 'public_port', 'static_port', 'gateway', 'mask'];

/**
 * 双中心互联 (spec 2 §4, §5): the server center (请选择服务端), the line mode (双主 or 主备: the network's
 * 线路主备 seen from the link; in 主备 the server is the main line and the other twin center the backup)
 * and either the server's public address (public port and local port then required) or a segment (网段
 * 不能为空). Off, the submit says 启用; on, it says OK and a close button turns the link off after a
 * confirmation.
 */
export function CenterLinkDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  const set = useNetworkMutation(setCenterLink);
  const on = detail.network_center_link === 1;
  const saved = detail.network_center_link_network;
  const centers = detail.centers.map((m) => ({ value: m.router_name, label: m.router_name }));
  const initial: Values = {
    center_router_name: saved.center_router_name || undefined,
    public_ip: saved.public_ip,
    public_port: saved.public_port ? String(saved.public_port) : '',
    static_port: saved.static_port ? String(saved.static_port) : '',
    gateway: saved.gateway,
    mask: saved.mask || undefined,
    line_mode: saved.line_mode === ROUTING_TYPE.mainBackup ? ROUTING_TYPE.mainBackup : ROUTING_TYPE.dual,
  };
  const server = Form.useWatch('center_router_name', form);
  const lineMode = Form.useWatch('line_mode', form);
  const backup = centers.find((c) => c.value !== server)?.value;

  /** What saving sends (without network_number), or null when the link is on and the form is the saved one. */
  const bodyOf = (v: Values) => {
    const body = input(v);
    if (on && JSON.stringify(body) === JSON.stringify(input(initial))) return null;
    return { enable: 1, ...body, public_port: body.public_port ?? '', static_port: body.static_port ?? '', mask: body.mask ?? '' };
  };
  const submit = async (v: Values) => {
    const body = bodyOf(v);
    if (body === null) return true;
    const env = await set.mutateAsync({ network_number: detail.network_number, ...body });
    return env.code === CODE.ok;
  };
  // Off, saving turns the link on: previewed as soon as the settings would pass (even unchanged ones).
  // Until the fields have mounted, the watch holds the closed form's {} (not the saved values): nothing is previewed then.
  const editing = Form.useWatch([], form) as Values | undefined;
  const editedBody = editing === undefined || !('center_router_name' in editing) ? null : bodyOf(editing);
  const previewed = editedBody !== null && setCenterLink.body.safeParse({ network_number: detail.network_number, ...editedBody }).success ? editedBody : null;

  const closeLink = () =>
    modal.confirm({
      title: networkSegmentsMessages.segUiCenterLinkClose,
      content: (
        <>
          {networkSegmentsMessages.segUiCenterLinkCloseConfirm}
          <ChangePreview networkNumber={detail.network_number} path={setCenterLink.path} body={{ enable: 0 }} />
        </>
      ),
      onOk: async () => {
        const env = await set.mutateAsync({ network_number: detail.network_number, enable: 0 });
        if (env.code === CODE.ok) onClose();
      },
    });

  const recheck = () => void form.validateFields({ dirty: true }).catch(() => undefined);
  const deps = (field: keyof Values) => ALL.filter((f) => f !== field);

  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      form={form}
      title={
        <Flex gap={8} align="center">
          {networkSegmentsMessages.segUiCenterLinkTitle}
          {on && <Tag color="green">{networkSegmentsMessages.segUiCenterLinkOn}</Tag>}
        </Flex>
      }
      open={open}
      onClose={onClose}
      onSubmit={submit}
      okText={on ? undefined : networkSegmentsMessages.segUiCenterLinkEnable}
      initialValues={initial}
    >
      <Form.Item name="center_router_name" label={networkSegmentsMessages.segUiCenterLinkServer} rules={[linkRule('center_router_name')]}>
        <Select options={centers} placeholder={networkSegmentsMessages.segServerRequired} aria-label={networkSegmentsMessages.segUiCenterLinkServer} onChange={recheck} />
      </Form.Item>
      <Form.Item
        name="line_mode"
        label={networkSettingsUiMessages.netSetRoutingType}
        extra={
          lineMode === ROUTING_TYPE.mainBackup && server && backup ? (
            <Typography.Text type="secondary">{fmt(networkSegmentsMessages.segUiCenterLinkMainBackupHint, { name: server, other: backup })}</Typography.Text>
          ) : undefined
        }
      >
        <Radio.Group aria-label={networkSettingsUiMessages.netSetRoutingType}>
          <Radio value={ROUTING_TYPE.dual}>{networkSettingsUiMessages.netSetRoutingDual}</Radio>
          <Radio value={ROUTING_TYPE.mainBackup}>{networkSettingsUiMessages.netSetRoutingMainBackup}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item name="public_ip" label={networkSegmentsMessages.segUiPublicIpOptional} rules={[zodRule(publicIpField)]}>
        <Input aria-label={networkSegmentsMessages.segUiPublicIp} inputMode="decimal" onChange={recheck} />
      </Form.Item>
      <Flex gap={12} wrap>
        <Form.Item name="public_port" label={networkSegmentsMessages.segUiPublicPort} rules={[zodRule(portField), linkRule('public_port')]} dependencies={deps('public_port')} style={{ flex: '1 1 160px' }}>
          <Input aria-label={networkSegmentsMessages.segUiPublicPort} inputMode="numeric" maxLength={SEGMENT_LIMITS.portInputMax} />
        </Form.Item>
        <Form.Item name="static_port" label={networkSegmentsMessages.segUiLocalPort} rules={[zodRule(portField), linkRule('static_port')]} dependencies={deps('static_port')} style={{ flex: '1 1 160px' }}>
          <Input aria-label={networkSegmentsMessages.segUiLocalPort} inputMode="numeric" maxLength={SEGMENT_LIMITS.portInputMax} />
        </Form.Item>
      </Flex>
      <Flex gap={12} wrap>
        <Form.Item
          name="gateway"
          label={networkSegmentsMessages.segUiGateway}
          rules={[gatewayRule, linkRule('gateway'), ({ getFieldValue }) => ({ validator: async (_, v: unknown) => formatCheck(text(v), getFieldValue('mask') as number | undefined) })]}
          dependencies={deps('gateway')}
          style={{ flex: '1 1 200px' }}
        >
          <Input aria-label={networkSegmentsMessages.segUiGateway} inputMode="decimal" placeholder="10.254.0.0" />
        </Form.Item>
        <Form.Item name="mask" label={networkSegmentsMessages.segUiMask} rules={[linkRule('mask')]} dependencies={['gateway']} style={{ flex: '0 0 120px' }}>
          <Select options={SEGMENT_MASK_OPTIONS} virtual={false} aria-label={networkSegmentsMessages.segUiMask} placeholder={networkSegmentsMessages.segUiMask} allowClear />
        </Form.Item>
      </Flex>
      <ChangePreview networkNumber={detail.network_number} path={setCenterLink.path} body={previewed} />
      {on && (
        <Button danger block onClick={closeLink}>
          {networkSegmentsMessages.segUiCenterLinkClose}
        </Button>
      )}
    </FormDialog>
  );
}

function formatCheck(gateway: string, mask: number | undefined): Promise<void> {
  if (gateway !== '' && mask !== undefined && GATEWAY_IP.safeParse(gateway).success && !isNetworkAddress(gateway, mask)) return Promise.reject(new Error(networkSegmentsMessages.segGatewayFormat));
  return Promise.resolve();
}
