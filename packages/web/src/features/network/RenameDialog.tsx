import { CODE, LIMITS, type NetworkItem, networkMessages, renameNetwork } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';

interface Values {
  network_name: string;
}

/** Renames a network: required, at most 24 characters (the input stops at 24). */
export function RenameDialog({ record, onClose }: { record: NetworkItem | null; onClose: () => void }) {
  const rename = useNetworkMutation(renameNetwork);
  const submit = async (v: Values) => {
    if (!record) return false;
    const env = await rename.mutateAsync({ network_number: record.network_number, network_name: v.network_name.trim() });
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      key={record?.network_number ?? 'none'}
      title={networkMessages.networkRename}
      open={record !== null}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{ network_name: record?.network_name ?? '' }}
    >
      <Form.Item name="network_name" label={networkMessages.networkColName} rules={rulesOf(renameNetwork.body, 'network_name')}>
        <Input maxLength={LIMITS.networkNameMax} placeholder={networkMessages.networkNameRequired} showCount />
      </Form.Item>
    </FormDialog>
  );
}
