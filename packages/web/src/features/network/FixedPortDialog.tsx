import { CODE, type FixedPortService, fmt, LIMITS, type NetworkMember, networkSegmentsMessages, portField, publicIpField, SEGMENT_LIMITS, setFixedPort } from '@hublink/contract';
import { Divider, Flex, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { text, zodRule } from './segmentForm';

type Service = 'router_service' | 'software_service';
interface Fields {
  public_ip?: string;
  public_port?: string;
  static_port?: string;
}
type Values = Record<Service, Fields | undefined>;

const SERVICES: { key: Service; label: string; of: 'router' | 'software' }[] = [
  { key: 'router_service', label: networkSegmentsMessages.segUiRouterService, of: 'router' },
  { key: 'software_service', label: networkSegmentsMessages.segUiSoftwareService, of: 'software' },
];
const OTHER: Record<Service, Service> = { router_service: 'software_service', software_service: 'router_service' };

const filled = (f: Fields | undefined) => !!f && (text(f.public_ip) !== '' || text(f.public_port) !== '' || text(f.static_port) !== '');
const shown = (s: FixedPortService | null): Fields => ({
  public_ip: s?.public_ip ?? '',
  public_port: s?.public_port ? String(s.public_port) : '',
  static_port: s?.static_port ? String(s.static_port) : '',
});

/** Public and local port are required once any field of the service is filled (X不能为空！). */
const requiredWhenFilled =
  (service: Service, label: string): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_, v: unknown) => {
      if (text(v) === '' && filled(getFieldValue(service) as Fields | undefined)) throw new Error(fmt(networkSegmentsMessages.segFieldRequired, { label }));
    },
  });

/** The two services' local ports differ, and their public IP and port pairs are not the same. */
const apartRule =
  (service: Service, field: 'static_port' | 'public_port'): Rule =>
  ({ getFieldValue }) => ({
    validator: async () => {
      if (service !== 'software_service') return;
      const [r, s] = [getFieldValue('router_service') as Fields | undefined, getFieldValue('software_service') as Fields | undefined];
      if (!filled(r) || !filled(s) || !text(r!.static_port) || !text(s!.static_port) || !text(r!.public_port) || !text(s!.public_port)) return;
      if (field === 'static_port' && text(r!.static_port) === text(s!.static_port)) throw new Error(networkSegmentsMessages.segLocalPortSame);
      if (field === 'public_port' && text(r!.static_port) !== text(s!.static_port) && text(r!.public_ip) === text(s!.public_ip) && text(r!.public_port) === text(s!.public_port)) {
        throw new Error(networkSegmentsMessages.segPublicSame);
      }
    },
  });

/**
 * 固定端口 of a center (spec 2 §5): for its hardware service (硬件服务) and software service (软件服务)
 * a public IP (optional), a public port and a local port (1025–65535). Blank services are cleared; an
 * unchanged form closes without a call.
 */
export function FixedPortDialog({ networkNumber, member, onClose }: { networkNumber: string; member: NetworkMember | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = useNetworkMutation(setFixedPort);
  const initial: Values = { router_service: shown(member?.fixed_port.router ?? null), software_service: shown(member?.fixed_port.software ?? null) };
  /** What saving sends (without network_number), or null when the form is the saved one. */
  const bodyOf = (v: Values, name: string) => {
    const service = (f: Fields | undefined) => ({ public_ip: text(f?.public_ip), public_port: text(f?.public_port), static_port: text(f?.static_port) });
    const [router, software] = [service(v.router_service), service(v.software_service)];
    if (JSON.stringify([router, software]) === JSON.stringify([service(initial.router_service), service(initial.software_service)])) return null;
    return { router_name: name, router_service: router, software_service: software };
  };
  const submit = async (v: Values) => {
    const body = bodyOf(v, member!.router_name);
    if (body === null) return true;
    const env = await set.mutateAsync({ network_number: networkNumber, ...body });
    return env.code === CODE.ok;
  };
  // Until the fields have mounted, the watch holds the closed form's {} (not the saved values): nothing is previewed then.
  const editing = Form.useWatch([], form) as Values | undefined;
  const editedBody = editing?.router_service === undefined || member === null ? null : bodyOf(editing, member.router_name);
  const previewed = editedBody !== null && setFixedPort.body.safeParse({ network_number: networkNumber, ...editedBody }).success ? editedBody : null;
  const revalidate = () => void form.validateFields({ dirty: true }).catch(() => undefined);
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={fmt(networkSegmentsMessages.segUiFixedPortTitle, { name: member?.router_name ?? '' })} open={member !== null} onClose={onClose} onSubmit={submit} initialValues={initial}>
      {SERVICES.map(({ key, label }) => (
        <div key={key} role="group" aria-label={label}>
          <Divider titlePlacement="start">{label}</Divider>
          <Form.Item name={[key, 'public_ip']} label={networkSegmentsMessages.segUiPublicIpOptional} rules={[zodRule(publicIpField)]}>
            <Input aria-label={`${label} ${networkSegmentsMessages.segUiPublicIp}`} inputMode="decimal" onChange={revalidate} />
          </Form.Item>
          <Flex gap={12} wrap>
            <Form.Item
              name={[key, 'public_port']}
              label={networkSegmentsMessages.segUiPublicPort}
              rules={[requiredWhenFilled(key, networkSegmentsMessages.segUiPublicPort), zodRule(portField), apartRule(key, 'public_port')]}
              dependencies={[[OTHER[key], 'public_port'], [key, 'public_ip'], [key, 'static_port']]}
              style={{ flex: '1 1 160px' }}
            >
              <Input aria-label={`${label} ${networkSegmentsMessages.segUiPublicPort}`} inputMode="numeric" maxLength={SEGMENT_LIMITS.portInputMax} />
            </Form.Item>
            <Form.Item
              name={[key, 'static_port']}
              label={networkSegmentsMessages.segUiLocalPort}
              rules={[requiredWhenFilled(key, networkSegmentsMessages.segUiLocalPort), zodRule(portField), apartRule(key, 'static_port')]}
              dependencies={[[OTHER[key], 'static_port'], [key, 'public_ip'], [key, 'public_port']]}
              style={{ flex: '1 1 160px' }}
            >
              <Input aria-label={`${label} ${networkSegmentsMessages.segUiLocalPort}`} inputMode="numeric" maxLength={SEGMENT_LIMITS.portInputMax} />
            </Form.Item>
          </Flex>
        </div>
      ))}
      <ChangePreview networkNumber={networkNumber} path={setFixedPort.path} body={previewed} />
    </FormDialog>
  );
}
