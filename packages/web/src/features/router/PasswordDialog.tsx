import { CODE, LIMITS, type RouterItem, routerMessages, routerPassword } from '@hublink/contract';
import { Form, Input } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useRouterMutation } from './api';

const rules = rulesOf(routerPassword.body, 'password');

/** Sets a software member's password (6–18 characters). */
export function PasswordDialog({ member, onClose }: { member: RouterItem | undefined; onClose: () => void }) {
  const save = useRouterMutation(routerPassword);
  return (
    <FormDialog<{ password: string }>
      title={routerMessages.memberPasswordTitle}
      open={member !== undefined}
      onClose={onClose}
      initialValues={{ password: '' }}
      onSubmit={async (v) => member !== undefined && (await save.mutateAsync({ router_name: member.router_name, password: v.password })).code === CODE.ok}
    >
      <Form.Item label={routerMessages.memberAccountLabel}>
        <Input value={member?.router_name} disabled aria-label={routerMessages.memberAccountLabel} />
      </Form.Item>
      <Form.Item name="password" label={routerMessages.memberPasswordLabel} rules={rules}>
        <Input.Password placeholder={routerMessages.memberPasswordPlaceholder} aria-label={routerMessages.memberPasswordLabel} maxLength={LIMITS.memberPasswordMax} autoComplete="new-password" />
      </Form.Item>
    </FormDialog>
  );
}
