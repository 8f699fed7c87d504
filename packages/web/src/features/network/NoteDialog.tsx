import { EditOutlined } from '@ant-design/icons';
import { CODE, fmt, LIMITS, type NetworkMember, networkMessages, noteRouter, routerMessages } from '@hublink/contract';
import { Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { rulesOf } from '../../api/rules';
import { mayVisit } from '../../session/guard';
import { useUser } from '../../session/user';
import { FormDialog } from '../../components/FormDialog';
import { shortNote } from '../../components/shortNote';
import { useNetworkMutation } from './api';
import { orDash } from './labels';

const rules = rulesOf(noteRouter.body, 'note');

/** 备注 of a member, edited from the network detail (spec 2 §2 "Dialogs: note"; at most 24 characters, §5). */
export function NoteDialog({ member, onClose }: { member: NetworkMember | null; onClose: () => void }) {
  const save = useNetworkMutation(noteRouter);
  return (
    <FormDialog<{ note: string }>
      title={fmt(networkMessages.networkNoteTitle, { name: member?.router_name ?? '' })}
      open={member !== null}
      onClose={onClose}
      initialValues={{ note: member?.note ?? '' }}
      guardMs={LIMITS.networkLoadingClearMs}
      onSubmit={async (v) => {
        if (member === null) return false;
        const note = (v.note ?? '').trim();
        // Nothing changed: nothing to send.
        if (note === member.note) return true;
        return (await save.mutateAsync({ router_name: member.router_name, note })).code === CODE.ok;
      }}
    >
      <Form.Item name="note" label={routerMessages.memberNoteLabel} rules={rules}>
        <Input placeholder={routerMessages.memberNotePlaceholder} aria-label={routerMessages.memberNoteLabel} maxLength={LIMITS.memberNoteMax} showCount autoFocus />
      </Form.Item>
    </FormDialog>
  );
}

/**
 * The note column's cell: the note cut as lists cut it (the whole note on hover) and, with the member
 * edit right (the server's guard of /router/note), a button that opens the note dialog.
 */
export function MemberNoteCell({ member }: { member: NetworkMember }) {
  const mayEdit = mayVisit('easylink.router.edit', useUser());
  const [open, setOpen] = useState(false);
  return (
    <Flex gap={4} align="center" wrap={false}>
      <span title={member.note}>{orDash(shortNote(member.note))}</span>
      {mayEdit && (
        <Button type="link" size="small" icon={<EditOutlined />} aria-label={fmt(networkMessages.networkNoteEdit, { name: member.router_name })} onClick={() => setOpen(true)} />
      )}
      {mayEdit && <NoteDialog member={open ? member : null} onClose={() => setOpen(false)} />}
    </Flex>
  );
}
