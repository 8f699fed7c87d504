import { type BodyOf, CODE, createRam, editRam, LIMITS, ramDomain, type RamItem, ramMessages, selectRoles } from '@hublink/contract';
import { Form, Input, Select } from 'antd';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useRamMutation } from './api';

type Values = BodyOf<typeof createRam>;

export interface RamDialogProps {
  open: boolean;
  /** The sub-account to edit; none to create one. */
  record?: RamItem;
  onClose: () => void;
}

/**
 * Creates or edits a sub-account (spec 1 §2.11, §5). The username carries the tenant's '@domain' on
 * create and cannot change later; the password is required on create and optional on edit.
 */
export function RamDialog({ open, record, onClose }: RamDialogProps) {
  const editing = record !== undefined;
  const body = editing ? editRam.body : createRam.body;
  const domain = useApiQuery(ramDomain, undefined, { enabled: open }).data?.data?.domain ?? '';
  const roles = useApiQuery(selectRoles, undefined, { enabled: open });
  const create = useRamMutation(createRam);
  const edit = useRamMutation(editRam);

  // Until the roles arrive, the edited sub-account's own role still shows by name.
  const loaded = roles.data?.data;
  const roleOptions = loaded
    ? loaded.map((r) => ({ value: r.id, label: r.name }))
    : editing
      ? [{ value: record.role_id, label: record.role_name }]
      : [];

  const submit = async (values: Values) => {
    const env = editing
      ? await edit.mutateAsync({ id: record.id, role_id: values.role_id, nickname: values.nickname, password: values.password || undefined })
      : await create.mutateAsync(values);
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      key={record?.id ?? 'new'}
      title={editing ? ramMessages.ramEdit : ramMessages.ramCreate}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      guardMs={LIMITS.submitGuardLongMs}
      initialValues={editing ? { role_id: record.role_id, nickname: record.nickname } : {}}
    >
      <Form.Item name="role_id" label={ramMessages.ramRole} rules={rulesOf(body, 'role_id')}>
        <Select
          placeholder={ramMessages.ramRoleRequired}
          loading={roles.isFetching}
          options={roleOptions}
          notFoundContent={roles.isFetching ? undefined : <Link to="/ram/role">{ramMessages.roleNoRoles}</Link>}
          showSearch={{ optionFilterProp: 'label' }}
          aria-label={ramMessages.ramRole}
        />
      </Form.Item>
      <Form.Item name="nickname" label={ramMessages.ramNickname} rules={rulesOf(body, 'nickname')}>
        <Input maxLength={LIMITS.nicknameMax} placeholder={ramMessages.ramNicknameRequired} />
      </Form.Item>
      {editing ? (
        <Form.Item label={ramMessages.ramUsername}>
          <Input value={`${record.username}@${domain}`} disabled aria-label={ramMessages.ramUsername} />
        </Form.Item>
      ) : (
        <Form.Item name="username" label={ramMessages.ramUsername} rules={rulesOf(createRam.body, 'username')}>
          <Input maxLength={LIMITS.ramUsernameMax} placeholder={ramMessages.ramUsernameRequired} suffix={`@${domain}`} autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item name="password" label={ramMessages.ramPassword} rules={rulesOf(body, 'password')}>
        <Input.Password
          maxLength={LIMITS.passwordMax}
          placeholder={editing ? ramMessages.ramPasswordKeep : ramMessages.ramPasswordRequired}
          autoComplete="new-password"
        />
      </Form.Item>
    </FormDialog>
  );
}
