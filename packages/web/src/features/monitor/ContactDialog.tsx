import { type BodyOf, CODE, type ContactItem, createContact, editContact, LIMITS, monitorMessages } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useMonitorMutation } from './api';

type Values = BodyOf<typeof createContact>;

export interface ContactDialogProps {
  open: boolean;
  /** The contact to edit; none to add one. */
  record?: ContactItem;
  onClose: () => void;
}

/** Adds or edits a contact (spec 3 §5: name and email required); a changed email must be verified again. */
export function ContactDialog({ open, record, onClose }: ContactDialogProps) {
  const create = useMonitorMutation(createContact);
  const edit = useMonitorMutation(editContact);
  const submit = async (values: Values) => {
    const env = record ? await edit.mutateAsync({ uuid: record.uuid, ...values }) : await create.mutateAsync(values);
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values>
      key={record?.uuid ?? 'new'}
      title={record ? monitorMessages.contactEdit : monitorMessages.contactCreate}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      guardMs={LIMITS.submitGuardLongMs}
      initialValues={record ? { name: record.name, email: record.email } : {}}
    >
      <Form.Item name="name" label={monitorMessages.contactName} rules={rulesOf(createContact.body, 'name')}>
        <Input maxLength={LIMITS.contactNameMax} placeholder={monitorMessages.contactNameRequired} />
      </Form.Item>
      <Form.Item name="email" label={monitorMessages.contactEmail} rules={rulesOf(createContact.body, 'email')}>
        <Input maxLength={LIMITS.emailMax} placeholder={monitorMessages.contactEmailRequired} autoComplete="off" />
      </Form.Item>
    </FormDialog>
  );
}
