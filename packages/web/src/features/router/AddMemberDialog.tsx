import { addRouter, addRouterBody, BIND_TYPE, CODE, LIMITS, networkMessages, ROUTER_TYPE, routerMessages, type RouterType } from '@hublink/contract';
import { Alert, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { sendCodeTo } from '../../api/sendCodeTo';
import { CodeInput } from '../../components/CodeInput';
import { useRouterMutation } from './api';
import { bindCodeRule, MemberPhoneInput, memberPhoneRule, typedPhone } from './fields';

interface Values {
  username: string;
  password: string;
  area_code: string;
  phone: string;
  code: string;
  note: string;
}

const rules = {
  username: rulesOf(addRouterBody, 'username'),
  password: rulesOf(addRouterBody, 'password'),
  note: rulesOf(addRouterBody, 'note'),
  phone: [memberPhoneRule(true)],
  code: [bindCodeRule(true)],
};

export interface AddMemberDialogProps {
  type: RouterType;
  open: boolean;
  onClose: () => void;
}

/**
 * Adds one member (spec 3 "Member add form"). The tab fixes router_type; a hardware member is its
 * device name and device secret; a software member may bind a phone with an app_bind_phone code.
 * A 401 answer means the phone belongs to another member: the form switches to binding mode (type 2),
 * shows the server's message, and the user gets a new code and submits again to move the phone.
 */
export function AddMemberDialog({ type, open, onClose }: AddMemberDialogProps) {
  const [form] = Form.useForm<Values>();
  const add = useRouterMutation(addRouter);
  const [binding, setBinding] = useState<string | null>(null);
  const software = type === ROUTER_TYPE.software;

  const close = () => {
    setBinding(null);
    onClose();
  };

  const submit = async (v: Values) => {
    const phone = software ? v.phone.trim() : '';
    const env = await add.mutateAsync({
      router_type: type,
      username: v.username.trim(),
      password: v.password,
      note: v.note.trim(),
      ...(phone ? { area_code: v.area_code, phone, code: v.code.trim(), type: binding !== null ? BIND_TYPE.verify : BIND_TYPE.bind } : {}),
    });
    if (env.code === CODE.ok) {
      setBinding(null);
      return true;
    }
    if (env.code === CODE.flow401 && phone) {
      form.setFieldValue('code', '');
      setBinding(env.msg || routerMessages.memberPhoneTaken);
    }
    return false;
  };

  return (
    <FormDialog<Values>
      title={software ? routerMessages.memberAddSoftwareTitle : routerMessages.memberAddHardwareTitle}
      open={open}
      onClose={close}
      onSubmit={submit}
      form={form}
      initialValues={{ username: '', password: '', area_code: LIMITS.defaultAreaCode, phone: '', code: '', note: '' }}
    >
      <Form.Item name="username" label={software ? routerMessages.memberAccountLabel : routerMessages.memberDeviceName} rules={rules.username}>
        <Input
          placeholder={routerMessages.memberAccountPlaceholder}
          aria-label={software ? routerMessages.memberAccountLabel : routerMessages.memberDeviceName}
          maxLength={LIMITS.memberNameMax}
          autoComplete="off"
        />
      </Form.Item>
      <Form.Item name="password" label={software ? routerMessages.memberPasswordLabel : routerMessages.memberDeviceSecret} rules={rules.password}>
        <Input.Password
          placeholder={routerMessages.memberPasswordPlaceholder}
          aria-label={software ? routerMessages.memberPasswordLabel : routerMessages.memberDeviceSecret}
          maxLength={LIMITS.memberPasswordMax}
          autoComplete="new-password"
        />
      </Form.Item>
      {software && (
        <>
          {/* Spec 3 §2.2: software members are always ordinary points; the position control shows it, disabled. */}
          <Form.Item label={routerMessages.memberPositionLabel} extra={routerMessages.memberPositionSoftwareHint}>
            <Radio.Group
              disabled
              value="point"
              aria-label={routerMessages.memberPositionLabel}
              options={[
                { value: 'center', label: networkMessages.networkPositionCenter },
                { value: 'point', label: networkMessages.networkPositionPoint },
              ]}
            />
          </Form.Item>
          {binding !== null && <Alert type="warning" showIcon title={binding} description={routerMessages.memberBindModeHint} style={{ marginBottom: 16 }} />}
          <MemberPhoneInput rules={rules.phone} placeholder={routerMessages.memberPhonePlaceholder} onEdit={() => setBinding(null)} />
          <CodeInput
            rules={rules.code}
            sendKey={binding !== null ? 'rebind' : 'bind'}
            onSend={() => sendCodeTo('phone', 'app_bind_phone', () => typedPhone(form))}
          />
        </>
      )}
      <Form.Item name="note" label={routerMessages.memberNoteLabel} rules={rules.note}>
        <Input placeholder={routerMessages.memberNotePlaceholder} aria-label={routerMessages.memberNoteLabel} maxLength={LIMITS.memberNoteMax} showCount />
      </Form.Item>
    </FormDialog>
  );
}
