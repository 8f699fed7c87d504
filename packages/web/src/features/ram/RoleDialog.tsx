import { CODE, createRole, editRole, LIMITS, normalizeRoleAuth, ramMessages, type RoleAuth, roleInfo, type RoleItem, selectNetworks } from '@hublink/contract';
import { Checkbox, Flex, Form, Input, Modal, Select, Typography, type FormInstance } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useRamMutation } from './api';

interface Values {
  name: string;
  note: string;
  auth: RoleAuth;
}

const EMPTY_AUTH: RoleAuth = {
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
};

const NETWORKS: ['auth', 'easylink.network', 'network'] = ['auth', 'easylink.network', 'network'];
const NETWORK_CREATE: ['auth', 'easylink.network', 'create'] = ['auth', 'easylink.network', 'create'];

/** One permission flag (1 or 0) as a checkbox. */
function Flag({ path, label, disabled }: { path: string[]; label: string; disabled?: boolean }) {
  return (
    <Form.Item
      name={path}
      valuePropName="checked"
      getValueProps={(v: number) => ({ checked: v === 1 })}
      normalize={(checked: boolean) => (checked ? 1 : 0)}
      noStyle
    >
      <Checkbox disabled={disabled}>{label}</Checkbox>
    </Form.Item>
  );
}

/** View is always on (spec 1 §5): shown ticked and locked. */
const ViewFlag = () => (
  <Checkbox checked disabled>
    {ramMessages.permView}
  </Checkbox>
);

function PermissionRow({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Flex gap={16} align="center" wrap style={{ marginBottom: 12 }} role="group" aria-label={title}>
      <Typography.Text strong style={{ width: 72 }}>
        {title}
      </Typography.Text>
      <Flex gap={8} wrap>
        {children}
      </Flex>
    </Flex>
  );
}

/**
 * The networks a role is limited to: the tenant's networks by name, kept as numbers; a number whose
 * network is gone shows as the number itself.
 */
function NetworkSelect({ value = [], onChange }: { value?: string[]; onChange?: (v: string[]) => void }) {
  const list = useApiQuery(selectNetworks);
  const options = useMemo(() => {
    const known = (list.data?.data ?? []).map((n) => ({ value: n.network_number, label: n.network_name }));
    const numbers = new Set(known.map((o) => o.value));
    return [...known, ...value.filter((n) => !numbers.has(n)).map((n) => ({ value: n, label: n }))];
  }, [list.data, value]);
  return (
    <Select<string[]>
      mode="multiple"
      allowClear
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={list.isLoading}
      maxCount={LIMITS.roleNetworksMax}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={ramMessages.roleNetworkSelect}
      aria-label={ramMessages.roleNetworks}
    />
  );
}

/**
 * The permission editor (spec 1 §3–§5): members create/edit/delete, networks create/edit/delete plus the
 * networks the role is limited to, monitoring view/enable/settings/disable. Specifying a network clears
 * and locks network create.
 */
function PermissionEditor({ form }: { form: FormInstance<Values> }) {
  const networks = Form.useWatch(NETWORKS, form) as string[] | undefined;
  const limited = (networks ?? []).length > 0;
  useEffect(() => {
    if (limited && form.getFieldValue(NETWORK_CREATE) === 1) form.setFieldValue(NETWORK_CREATE, 0);
  }, [limited, form]);

  return (
    <>
      <PermissionRow title={ramMessages.rolePermRouter}>
        <ViewFlag />
        <Flag path={['auth', 'easylink.router', 'create']} label={ramMessages.permCreate} />
        <Flag path={['auth', 'easylink.router', 'edit']} label={ramMessages.permEdit} />
        <Flag path={['auth', 'easylink.router', 'delete']} label={ramMessages.permDelete} />
      </PermissionRow>
      <PermissionRow title={ramMessages.rolePermNetwork}>
        <ViewFlag />
        <Flag path={NETWORK_CREATE} label={ramMessages.permCreate} disabled={limited} />
        <Flag path={['auth', 'easylink.network', 'edit']} label={ramMessages.permEdit} />
        <Flag path={['auth', 'easylink.network', 'delete']} label={ramMessages.permDelete} />
      </PermissionRow>
      <Form.Item name={NETWORKS} label={ramMessages.roleNetworks} extra={ramMessages.roleNetworksHint} style={{ marginInlineStart: 88 }}>
        <NetworkSelect />
      </Form.Item>
      <PermissionRow title={ramMessages.rolePermMonitor}>
        <ViewFlag />
        <Flag path={['auth', 'monitor', 'create']} label={ramMessages.permMonitorCreate} />
        <Flag path={['auth', 'monitor', 'edit']} label={ramMessages.permMonitorEdit} />
        <Flag path={['auth', 'monitor', 'delete']} label={ramMessages.permMonitorDelete} />
      </PermissionRow>
    </>
  );
}

export interface RoleDialogProps {
  open: boolean;
  /** The role to edit; none to create one. */
  record?: RoleItem;
  onClose: () => void;
}

/** Creates or edits a role with its permissions (spec 1 §2.11). */
export function RoleDialog({ open, record, onClose }: RoleDialogProps) {
  const editing = record !== undefined;
  const info = useApiQuery(roleInfo, { id: record?.id ?? 0 }, { enabled: open && editing });
  const [form] = Form.useForm<Values>();
  const create = useRamMutation(createRole);
  const edit = useRamMutation(editRole);
  const title = editing ? ramMessages.roleEdit : ramMessages.roleCreate;

  const submit = async (values: Values) => {
    const auth = normalizeRoleAuth({
      'easylink.router': { ...EMPTY_AUTH['easylink.router'], ...values.auth?.['easylink.router'] },
      'easylink.network': { ...EMPTY_AUTH['easylink.network'], ...values.auth?.['easylink.network'], network: values.auth?.['easylink.network']?.network ?? [] },
      monitor: { ...EMPTY_AUTH.monitor, ...values.auth?.monitor },
    });
    const body = { name: values.name, note: values.note ?? '', auth };
    const env = editing ? await edit.mutateAsync({ id: record.id, ...body }) : await create.mutateAsync(body);
    // The name is the one field the server can refuse after the form passed: say it where it was typed.
    if (env.msg === ramMessages.roleNameTaken) form.setFields([{ name: 'name', errors: [env.msg] }]);
    return env.code === CODE.ok;
  };

  // The form starts from the role as stored, so it waits for it.
  const detail = info.data?.data;
  if (open && editing && !detail) return <Modal title={title} open loading onCancel={onClose} footer={null} />;

  return (
    <FormDialog<Values>
      key={record?.id ?? 'new'}
      form={form}
      title={title}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      guardMs={LIMITS.submitGuardLongMs}
      width={640}
      initialValues={detail ? { name: detail.name, note: detail.note, auth: detail.auth } : { name: '', note: '', auth: EMPTY_AUTH }}
    >
      <Form.Item name="name" label={ramMessages.roleName} rules={rulesOf(createRole.body, 'name')}>
        <Input maxLength={LIMITS.roleNameMax} placeholder={ramMessages.roleNameRequired} />
      </Form.Item>
      <Form.Item name="note" label={ramMessages.roleNote} rules={rulesOf(createRole.body, 'note')}>
        <Input.TextArea maxLength={LIMITS.roleNoteMax} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <Form.Item label={ramMessages.roleAuth} required={false} style={{ marginBottom: 0 }}>
        <PermissionEditor form={form} />
      </Form.Item>
    </FormDialog>
  );
}
