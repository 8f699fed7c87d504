import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CODE, dnsRowField, fmt, LIMITS, type NetworkDetail, networkMessages, networkSettingsUiMessages, setDns } from '@hublink/contract';
import { Button, Flex, Form, Input, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { toast } from '../../api/notify';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';

interface Values {
  dns?: string[];
}

const clean = (rows: string[] | undefined) => (rows ?? []).map((r) => (r ?? '').trim());

/** One row: required and a valid address, with the contract's messages (dnsRowField). */
const rowRule: Rule = {
  validator: async (_, v: unknown) => {
    const r = dnsRowField.safeParse(v ?? '');
    if (!r.success) throw new Error(r.error.issues[0]?.message);
  },
};

/** No two rows alike. */
const uniqueRule: Rule = ({ getFieldValue }) => ({
  validator: async (_, v: unknown) => {
    const value = typeof v === 'string' ? v.trim() : '';
    if (value !== '' && clean(getFieldValue('dns') as string[]).filter((r) => r === value).length > 1) throw new Error(networkMessages.networkDnsRepeat);
  },
});

/**
 * DNS配置 (spec 2 §5): editable rows, at most network_config.dns_quantity of them (DNS仅支持 N 个), each
 * required, valid and unique. An unchanged list closes the dialog without a call; an empty one clears it.
 */
export function DnsDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = useNetworkMutation(setDns);
  const max = detail.network_config.dns_quantity;
  const unchanged = (rows: string[]) => rows.length === detail.network_dns.length && rows.every((r, i) => r === detail.network_dns[i]);
  const editing = clean(Form.useWatch('dns', form));
  const previewed = unchanged(editing) || !editing.every((r) => dnsRowField.safeParse(r).success) || new Set(editing).size < editing.length ? null : { dns: editing };
  const submit = async (v: Values) => {
    const rows = clean(v.dns);
    if (unchanged(rows)) return true;
    const env = await set.mutateAsync({ network_number: detail.network_number, dns: rows });
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkMessages.networkMenuDns} open={open} onClose={onClose} onSubmit={submit} initialValues={{ dns: detail.network_dns }}>
      <Form.List name="dns">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{networkSettingsUiMessages.netSetDnsEmpty}</Typography.Paragraph>}
            {fields.map((field, i) => (
              <Form.Item key={field.key} label={`${networkSettingsUiMessages.netSetDnsRow} ${i + 1}`} required={false}>
                <Flex gap={8}>
                  <Form.Item name={field.name} noStyle rules={[rowRule, uniqueRule]} validateTrigger={['onChange', 'onBlur']}>
                    <Input placeholder={networkMessages.networkDnsInvalid} inputMode="decimal" aria-label={`${networkSettingsUiMessages.netSetDnsRow} ${i + 1}`} />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={`${networkSettingsUiMessages.netSetDnsRemove} ${networkSettingsUiMessages.netSetDnsRow} ${i + 1}`} onClick={() => remove(field.name)} />
                </Flex>
              </Form.Item>
            ))}
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              onClick={() => (fields.length >= max ? toast.warning(fmt(networkMessages.networkDnsLimit, { n: max })) : add(''))}
            >
              {networkSettingsUiMessages.netSetDnsAdd}
            </Button>
          </>
        )}
      </Form.List>
      <ChangePreview networkNumber={detail.network_number} path={setDns.path} body={previewed} />
    </FormDialog>
  );
}
