import { CODE, editSign, LIMITS, routerMessages } from '@hublink/contract';
import { Form, Input, Typography } from 'antd';
import { useApiMutation } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../session/user';
import { FormDialog } from '../../components/FormDialog';

const rules = rulesOf(editSign.body, 'sign');

/**
 * Edits the tenant's software member suffix (members log in as username@sign): 6–12 letters or digits.
 * An unchanged suffix (the server stores it lowercase) closes the dialog without a call.
 */
export function SignDialog({ open, current, onClose }: { open: boolean; current: string; onClose: () => void }) {
  const save = useApiMutation(editSign);
  const submit = async ({ sign }: { sign: string }) => {
    const value = sign.trim();
    if (value.toLowerCase() === current.toLowerCase()) return true;
    const env = await save.mutateAsync({ sign: value });
    if (env.code !== CODE.ok) return false;
    await reloadUser();
    return true;
  };
  return (
    <FormDialog<{ sign: string }> title={routerMessages.memberSignTitle} open={open} onClose={onClose} initialValues={{ sign: current }} onSubmit={submit}>
      <Typography.Paragraph type="secondary">{routerMessages.memberSignHint}</Typography.Paragraph>
      <Form.Item name="sign" label={routerMessages.memberSignLabel} rules={rules}>
        <Input aria-label={routerMessages.memberSignLabel} maxLength={LIMITS.signMax} autoComplete="off" autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
