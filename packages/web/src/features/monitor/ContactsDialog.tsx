import { PlusOutlined } from '@ant-design/icons';
import { BM, type ContactItem, deleteContact, listContacts, monitorMessages } from '@hublink/contract';
import { Alert, Button, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { DeleteAction } from '../../components/DeleteAction';
import { PagedTable } from '../../components/PagedTable';
import { useMonitorMutation } from './api';
import { ContactDialog } from './ContactDialog';
import { useMonitorRights } from './rights';
import { VerifyButton } from './VerifyButton';

/** The list of the dialog; mounted only while the dialog is open, so it loads when opened. */
function ContactList({ onEdit }: { onEdit: (record?: ContactItem) => void }) {
  const rights = useMonitorRights();
  const list = usePagedList(listContacts);
  useStepBackWhenEmpty(list);
  const remove = useMonitorMutation(deleteContact);
  const columns = [
    { title: monitorMessages.contactName, dataIndex: 'name', key: 'name' },
    { title: monitorMessages.contactEmail, dataIndex: 'email', key: 'email' },
    {
      title: monitorMessages.contactStatus,
      key: 'email_verify',
      render: (_: unknown, r: ContactItem) => (r.email_verify === 1 ? <Tag color="success">{monitorMessages.contactVerified}</Tag> : <Tag>{monitorMessages.contactUnverified}</Tag>),
    },
    ...(rights.edit
      ? [
          {
            title: monitorMessages.contactActions,
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, r: ContactItem) => (
              <Space size={0} wrap={false}>
                <Button type="link" size="small" onClick={() => onEdit(r)}>
                  {BM.edit}
                </Button>
                {r.email_verify !== 1 && <VerifyButton uuid={r.uuid} />}
                <DeleteAction label={monitorMessages.contactDelete} onConfirm={() => remove.mutateAsync({ uuid: r.uuid })} />
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <PagedTable<ContactItem>
      rowKey="uuid"
      columns={columns}
      list={list}
      toolbar={
        rights.edit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => onEdit()}>
            {monitorMessages.contactCreate}
          </Button>
        )
      }
    />
  );
}

export interface ContactsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The contacts of monitoring (spec 3 §2): 10 a page with a pager of 5, add, edit, verify, delete. */
export function ContactsDialog({ open, onClose }: ContactsDialogProps) {
  const [editing, setEditing] = useState<{ record?: ContactItem } | null>(null);
  return (
    <Modal
      title={monitorMessages.monitorContacts}
      open={open}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      footer={<Button onClick={onClose}>{BM.close}</Button>}
    >
      <Alert type="info" showIcon title={monitorMessages.contactsHint} style={{ marginBottom: 16 }} />
      {open && <ContactList onEdit={(record) => setEditing({ record })} />}
      <ContactDialog open={editing !== null} record={editing?.record} onClose={() => setEditing(null)} />
    </Modal>
  );
}
