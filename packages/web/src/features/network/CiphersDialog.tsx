import { CODE, LIMITS, NCP_CIPHERS, type NcpCiphers, type NetworkDetail, networkMessages, networkSettingsUiMessages, setCiphers } from '@hublink/contract';
import { Form, Radio } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';

interface Values {
  ncp_ciphers: NcpCiphers;
}

const LABEL: Record<NcpCiphers, string> = { default: networkMessages.networkCiphersDefault, sm: networkSettingsUiMessages.netSetCiphersSm };

/** 加密方式: default or sm, the national crypto standard (spec 2 §3). */
export function CiphersDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = useNetworkMutation(setCiphers);
  const current = (NCP_CIPHERS as readonly string[]).includes(detail.ncp_ciphers) ? (detail.ncp_ciphers as NcpCiphers) : 'default';
  const chosen = Form.useWatch('ncp_ciphers', form);
  const submit = async (v: Values) => {
    const env = await set.mutateAsync({ network_number: detail.network_number, ncp_ciphers: v.ncp_ciphers });
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkMessages.networkMenuCiphers} open={open} onClose={onClose} onSubmit={submit} initialValues={{ ncp_ciphers: current }}>
      <Form.Item name="ncp_ciphers" label={networkMessages.networkCiphers} rules={rulesOf(setCiphers.body, 'ncp_ciphers')}>
        <Radio.Group options={NCP_CIPHERS.map((c) => ({ value: c, label: LABEL[c] }))} />
      </Form.Item>
      <ChangePreview networkNumber={detail.network_number} path={setCiphers.path} body={chosen === undefined || chosen === current ? null : { ncp_ciphers: chosen }} />
    </FormDialog>
  );
}
