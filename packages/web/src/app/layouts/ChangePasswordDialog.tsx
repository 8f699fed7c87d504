import { BM, type BodyOf, changeRamPassword, CODE, LIMITS } from '@hublink/contract';
import { Form, Input, Modal } from 'antd';
import { useApiMutation } from '../../api/hooks';
import { rulesOf, sameAs } from '../../api/rules';
import { useSignOut } from '../signOut';

type Values = BodyOf<typeof changeRamPassword>;
const body = changeRamPassword.body;

/** A sub-account changes its own password (spec 1 §2.6); signed out afterwards (spec 1 §4). */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const change = useApiMutation(changeRamPassword);
  const signOut = useSignOut();

  const submit = async (values: Values) => {
    const env = await change.mutateAsync(values);
    if (env.code !== CODE.ok) return;
    onClose();
    await signOut({ tellServer: false });
  };

  return (
    <Modal
      title={BM.changePassword}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={change.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} preserve={false}>
        <Form.Item name="old_password" label={BM.oldPassword} rules={rulesOf(body, 'old_password')}>
          <Input.Password maxLength={LIMITS.passwordMax} autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={BM.newPassword} rules={rulesOf(body, 'password')}>
          <Input.Password maxLength={LIMITS.passwordMax} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="reset_password"
          label={BM.repeatPassword}
          dependencies={['password']}
          rules={[...rulesOf(body, 'reset_password'), sameAs('password', BM.passwordMismatch)]}
        >
          <Input.Password maxLength={LIMITS.passwordMax} autoComplete="new-password" onPressEnter={() => form.submit()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
