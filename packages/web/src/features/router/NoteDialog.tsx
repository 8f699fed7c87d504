import { CODE, LIMITS, noteRouter, type RouterItem, routerMessages } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useRouterMutation } from './api';

const rules = rulesOf(noteRouter.body, 'note');

/** Edits a member's remark (at most 24 characters; the input cuts longer text). */
export function NoteDialog({ member, onClose }: { member: RouterItem | undefined; onClose: () => void }) {
  const save = useRouterMutation(noteRouter);
  return (
    <FormDialog<{ note: string }>
      title={routerMessages.memberNoteTitle}
      open={member !== undefined}
      onClose={onClose}
      initialValues={{ note: member?.note ?? '' }}
      onSubmit={async (v) => member !== undefined && (await save.mutateAsync({ router_name: member.router_name, note: v.note.trim() })).code === CODE.ok}
    >
      <Form.Item name="note" label={routerMessages.memberNoteLabel} rules={rules}>
        <Input placeholder={routerMessages.memberNotePlaceholder} aria-label={routerMessages.memberNoteLabel} maxLength={LIMITS.memberNoteMax} showCount autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
