import { type ApiTokenItem, apiTokenMessages, type ApiTokenScope, CODE, createApiToken, fmt, LIMITS, selectRoles } from '@hublink/contract';
import { Form, Input, Radio, Select } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useApiTokenMutation } from './api';

interface Values {
  name: string;
  scope: ApiTokenScope;
  role_id?: number;
  expires_days: number;
}

export interface CreateTokenDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new token, answered once: the page shows it in ShownTokenDialog. */
  onCreated: (made: ApiTokenItem & { token: string }) => void;
}

function RoleSelect({ value, onChange }: { value?: number; onChange?: (v: number) => void }) {
  const roles = useApiQuery(selectRoles);
  return (
    <Select<number>
      value={value}
      onChange={(v) => onChange?.(v)}
      loading={roles.isLoading}
      options={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={apiTokenMessages.apiTokenRoleRequired}
      aria-label={apiTokenMessages.apiTokenRole}
    />
  );
}

/** Creates a token: name, scope (read-only or a role) and lifetime, with the contract's rules. */
export function CreateTokenDialog({ open, onClose, onCreated }: CreateTokenDialogProps) {
  const [form] = Form.useForm<Values>();
  const scope = Form.useWatch('scope', form);
  const create = useApiTokenMutation(createApiToken);

  const submit = async (v: Values) => {
    const env = await create.mutateAsync({ name: v.name, scope: v.scope, role_id: v.scope === 'role' ? v.role_id : null, expires_days: v.expires_days });
    if (env.code === CODE.ok && env.data) onCreated(env.data);
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      form={form}
      title={apiTokenMessages.apiTokenCreate}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{ name: '', scope: 'read', expires_days: 90 }}
    >
      <Form.Item name="name" label={apiTokenMessages.apiTokenName} rules={rulesOf(createApiToken.body, 'name')}>
        <Input maxLength={LIMITS.apiTokenNameMax} placeholder={apiTokenMessages.apiTokenNameRequired} />
      </Form.Item>
      <Form.Item
        name="scope"
        label={apiTokenMessages.apiTokenScope}
        rules={rulesOf(createApiToken.body, 'scope')}
        extra={scope === 'role' ? apiTokenMessages.apiTokenScopeRoleHint : apiTokenMessages.apiTokenScopeReadHint}
      >
        <Radio.Group
          options={[
            { value: 'read', label: apiTokenMessages.apiTokenScopeRead },
            { value: 'role', label: apiTokenMessages.apiTokenScopeRole },
          ]}
        />
      </Form.Item>
      {scope === 'role' && (
        <Form.Item name="role_id" label={apiTokenMessages.apiTokenRole} rules={[{ required: true, message: apiTokenMessages.apiTokenRoleRequired }]}>
          <RoleSelect />
        </Form.Item>
      )}
      <Form.Item name="expires_days" label={apiTokenMessages.apiTokenExpiry} rules={rulesOf(createApiToken.body, 'expires_days')}>
        <Select<number> aria-label={apiTokenMessages.apiTokenExpiry} options={LIMITS.apiTokenExpiryDays.map((n) => ({ value: n, label: fmt(apiTokenMessages.apiTokenDays, { n }) }))} />
      </Form.Item>
    </FormDialog>
  );
}
