import { CODE, LIMITS, noteRouter, routerMessages, saasMessages } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useSaasMutation } from './api';

const rules = rulesOf(noteRouter.body, 'note');

/** Edits a device's note through the members' call (a SaaS device is a hardware member): at most 24 characters. */
export function SaasNoteDialog({ device, onClose }: { device: { router_name: string; note: string } | undefined; onClose: () => void }) {
  const save = useSaasMutation(noteRouter);
  return (
    <FormDialog<{ note: string }>
      title={saasMessages.saasEditNote}
      open={device !== undefined}
      onClose={onClose}
      initialValues={{ note: device?.note ?? '' }}
      onSubmit={async (v) => device !== undefined && (await save.mutateAsync({ router_name: device.router_name, note: v.note.trim() })).code === CODE.ok}
    >
      <Form.Item name="note" label={routerMessages.memberNoteLabel} rules={rules}>
        <Input placeholder={routerMessages.memberNotePlaceholder} aria-label={routerMessages.memberNoteLabel} maxLength={LIMITS.memberNoteMax} showCount autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
