import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CODE, editPrefix, fmt, getPrefix, isIpv4, LIMITS, networkAddress, type NetworkDetail, type NetworkPrefix, networkSegmentsMessages, PREFIX_PERMISSIONS, prefixKey, prefixMatchValid, prefixRowFields, SEGMENT_LIMITS } from '@hublink/contract';
import { Button, Divider, Flex, Form, Grid, Input, Select, Typography, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { useApiQuery } from '../../api/hooks';
import { toast } from '../../api/notify';
import { useUser } from '../../session/user';
import { FormDialog } from '../../components/FormDialog';
import { useAllMembers } from './allMembers';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { MATCH_OPTIONS, PREFIX_MASK_OPTIONS, text, zodRule } from './segmentForm';

interface Row {
  ip?: string;
  mask?: number;
  name?: string;
  permission?: string;
  ge?: number;
  le?: number;
}
interface Values {
  prefix?: Row[];
}

const PERMISSION_LABEL: Record<string, string> = { permit: networkSegmentsMessages.segUiPrefixPermit, deny: networkSegmentsMessages.segUiPrefixDeny };
const permissionOptions = PREFIX_PERMISSIONS.map((p) => ({ value: p, label: PERMISSION_LABEL[p] }));

/** A row as the server would store it: the comparison for "unchanged" and the body sent. */
function normal(r: Row, advanced: boolean): NetworkPrefix {
  const ip = text(r.ip);
  const mask = r.mask ?? 0;
  return {
    ip: networkAddress(ip, mask) ?? ip,
    mask,
    name: r.name ?? '',
    permission: advanced && r.permission === 'deny' ? 'deny' : 'permit',
    ge: advanced ? (r.ge ?? null) : null,
    le: advanced ? (r.le ?? null) : null,
  };
}

const rowsOf = (form: FormInstance<Values>) => (form.getFieldValue('prefix') as Row[] | undefined) ?? [];

/** No two rows with the same network number and mask (after correction). */
const uniqueRule =
  (index: number): Rule =>
  ({ getFieldValue }) => ({
    validator: async () => {
      const rows = (getFieldValue('prefix') as Row[] | undefined) ?? [];
      const r = rows[index];
      if (!r || !isIpv4(text(r.ip)) || r.mask === undefined) return;
      const key = prefixKey({ ip: text(r.ip), mask: r.mask });
      if (rows.filter((o) => o.mask !== undefined && isIpv4(text(o.ip)) && prefixKey({ ip: text(o.ip), mask: o.mask }) === key).length > 1) throw new Error(networkSegmentsMessages.segPrefixRepeat);
    },
  });

/** mask < ge ≤ le and le ≥ mask, for what is given. */
const matchRule =
  (index: number): Rule =>
  ({ getFieldValue }) => ({
    validator: async () => {
      const r = ((getFieldValue('prefix') as Row[] | undefined) ?? [])[index];
      if (r?.mask !== undefined && !prefixMatchValid({ mask: r.mask, ge: r.ge ?? undefined, le: r.le ?? undefined })) throw new Error(networkSegmentsMessages.segPrefixMatchRange);
    },
  });

/**
 * 路由前缀配置 (spec 2 §5): rows of network number, mask and member; with auth.quagga_advanced also
 * permission, ge and le. A network number with host bits is corrected to its mask with a warning. An
 * unchanged list closes without a call; an empty one clears it.
 */
export function PrefixDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const advanced = useUser()?.auth?.quagga_advanced === 1;
  const saved = useApiQuery(getPrefix, { network_number: detail.network_number }, { enabled: open });
  const edit = useNetworkMutation(editPrefix);
  const rows = saved.data?.data;
  // On a phone a row's fields wrap over several lines: each row gets a heading with its remove button.
  const narrow = Grid.useBreakpoint().md === false;
  const members = useAllMembers(detail, open).members.map((m) => ({ value: m.router_name, label: m.router_name }));

  /** Corrects row `i`'s network number to its mask, saying so. */
  const correct = (i: number) => {
    const r = rowsOf(form)[i];
    const ip = text(r?.ip);
    if (!r || r.mask === undefined || !isIpv4(ip)) return;
    const to = networkAddress(ip, r.mask);
    if (to && to !== ip) {
      form.setFieldValue(['prefix', i, 'ip'], to);
      toast.warning(fmt(networkSegmentsMessages.segPrefixCorrected, { from: ip, to }));
    }
  };

  /** The rows to send, or null when they are the saved ones. */
  const bodyOf = (edited: Row[]) => {
    const next = edited.map((r) => normal(r, advanced));
    const before = (rows ?? []).map((r) => normal({ ...r, ge: r.ge ?? undefined, le: r.le ?? undefined }, advanced));
    if (JSON.stringify(next) === JSON.stringify(before)) return null;
    return next.map((r) => (advanced ? { ...r, ge: r.ge ?? '', le: r.le ?? '' } : { ip: r.ip, mask: r.mask, name: r.name }));
  };
  const submit = async (v: Values) => {
    const body = bodyOf(v.prefix ?? []);
    if (body === null) return true;
    const env = await edit.mutateAsync({ network_number: detail.network_number, prefix: body });
    return env.code === CODE.ok;
  };
  // Previewed once every row is whole (an address and a mask); the server's answer says what else is wrong.
  const editing = (Form.useWatch('prefix', form) as Row[] | undefined) ?? [];
  const whole = editing.every((r) => r !== undefined && isIpv4(text(r.ip)) && r.mask !== undefined);
  const previewed = rows === undefined || !whole ? null : bodyOf(editing);

  const initial: Row[] = (rows ?? []).map((r) => ({ ip: r.ip, mask: r.mask, name: r.name || undefined, permission: r.permission, ge: r.ge ?? undefined, le: r.le ?? undefined }));
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkSegmentsMessages.segUiPrefixTitle} open={open && rows !== undefined} onClose={onClose} onSubmit={submit} initialValues={{ prefix: initial }} width={advanced ? 960 : 680}>
      <Form.List name="prefix">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{networkSegmentsMessages.segUiPrefixEmpty}</Typography.Paragraph>}
            {fields.map((field, i) => {
              const label = `${networkSegmentsMessages.segUiPrefixRow} ${i + 1}`;
              const removeButton = <Button type="text" danger icon={<DeleteOutlined />} aria-label={`${networkSegmentsMessages.segUiPrefixRemove} ${label}`} onClick={() => remove(field.name)} />;
              // Each field says what it is once its placeholder is gone: the first row's labels head the columns
              // on a wide dialog; on a phone, where the fields wrap, every row carries its own.
              const labelled = narrow || i === 0;
              const title = (text: string) => (labelled ? text : undefined);
              return (
                <Flex key={field.key} gap={8} wrap align="start" role="group" aria-label={label}>
                  {narrow && (
                    <Flex justify="space-between" align="center" style={{ width: '100%' }}>
                      <Divider titlePlacement="start" style={{ margin: 0, flex: 1 }}>
                        {label}
                      </Divider>
                      {removeButton}
                    </Flex>
                  )}
                  <Form.Item name={[field.name, 'ip']} rules={[zodRule(prefixRowFields.ip), uniqueRule(i)]} validateTrigger={['onChange', 'onBlur']} label={title(networkSegmentsMessages.segUiPrefixIp)} style={{ flex: '1 1 150px' }}>
                    <Input placeholder={networkSegmentsMessages.segUiPrefixIp} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixIp}`} inputMode="decimal" onBlur={() => correct(i)} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'mask']} rules={[zodRule(prefixRowFields.mask)]} label={title(networkSegmentsMessages.segUiPrefixMask)} style={{ flex: '0 0 96px' }}>
                    <Select options={PREFIX_MASK_OPTIONS} virtual={false} placeholder={networkSegmentsMessages.segUiPrefixMask} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixMask}`} onChange={() => correct(i)} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'name']} label={title(networkSegmentsMessages.segUiPrefixName)} style={{ flex: '1 1 140px' }}>
                    <Select options={members} allowClear placeholder={networkSegmentsMessages.segUiPrefixName} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixName}`} />
                  </Form.Item>
                  {advanced && (
                    <>
                      <Form.Item name={[field.name, 'permission']} initialValue="permit" label={title(networkSegmentsMessages.segUiPrefixPermission)} style={{ flex: '0 0 90px' }}>
                        <Select options={permissionOptions} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixPermission}`} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'ge']} rules={[matchRule(i)]} dependencies={[['prefix', field.name, 'mask'], ['prefix', field.name, 'le']]} label={title(networkSegmentsMessages.segUiPrefixGe)} style={{ flex: '0 0 140px' }}>
                        <Select options={MATCH_OPTIONS} virtual={false} allowClear placeholder={networkSegmentsMessages.segUiPrefixGe} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixGe}`} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'le']} rules={[matchRule(i)]} dependencies={[['prefix', field.name, 'mask'], ['prefix', field.name, 'ge']]} label={title(networkSegmentsMessages.segUiPrefixLe)} style={{ flex: '0 0 140px' }}>
                        <Select options={MATCH_OPTIONS} virtual={false} allowClear placeholder={networkSegmentsMessages.segUiPrefixLe} aria-label={`${label} ${networkSegmentsMessages.segUiPrefixLe}`} />
                      </Form.Item>
                    </>
                  )}
                  {!narrow && (i === 0 ? <Form.Item label=" ">{removeButton}</Form.Item> : removeButton)}
                </Flex>
              );
            })}
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              onClick={() =>
                fields.length >= SEGMENT_LIMITS.prefixRowsMax ? toast.warning(fmt(networkSegmentsMessages.segPrefixTooMany, { n: SEGMENT_LIMITS.prefixRowsMax })) : add({ ip: '', permission: 'permit' })
              }
            >
              {networkSegmentsMessages.segUiPrefixAdd}
            </Button>
          </>
        )}
      </Form.List>
      <ChangePreview networkNumber={detail.network_number} path={editPrefix.path} body={previewed === null ? null : { prefix: previewed }} />
    </FormDialog>
  );
}
