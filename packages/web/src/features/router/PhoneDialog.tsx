import { accountMessages, BIND_TYPE, BM, fmt, LIMITS, phoneValue, type RouterItem, routerMessages, routerPhone } from '@hublink/contract';
import { Alert, Button, Form, Modal } from 'antd';
import { useEffect, useRef } from 'react';
import { call } from '../../api/client';
import { sendCodeTo } from '../../api/sendCodeTo';
import { useVerifyMode } from '../../api/useVerifyMode';
import { CodeInput } from '../../components/CodeInput';
import { useReloadMembers } from './api';
import { bindCodeRule, changeCodeRule, MemberPhoneInput, memberPhoneRule, typedPhone } from './fields';
import { splitPhone } from './format';

interface Values {
  area_code: string;
  phone: string;
  code: string;
}

/** A body the dialog sends: type 1 binds (or, all empty, unbinds), type 2 proves the old phone. */
type PhoneBody = { router_name: string; type: 1 | 2; area_code: string; phone: string; code: string };

const rules = { phone: [memberPhoneRule(false)], code: [bindCodeRule(false)] };

/**
 * A software member's phone (spec 3 §4), as the account's binding dialog: titled 绑定手机号码 without a
 * phone and 修改手机号码 with one. On 401 or 403 it enters verify mode keeping the old phone: the code
 * goes to the old phone (app_change_phone) and type 2 proves it, after which the refused request is
 * sent again. Editing the phone leaves verify mode; leaving the phone field while it holds the old
 * phone enters it again. Unbind sends an empty phone and code. Success shows the server's message,
 * closes, and reloads the list after LIMITS.bindReloadMs.
 */
export function PhoneDialog({ member, onClose }: { member: RouterItem | undefined; onClose: () => void }) {
  const reloadMembers = useReloadMembers();
  const reload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(reload.current), []);

  const done = () => {
    onClose();
    clearTimeout(reload.current);
    reload.current = setTimeout(() => void reloadMembers(), LIMITS.bindReloadMs);
  };

  return member ? <PhoneForm key={member.router_name} member={member} onClose={onClose} onDone={done} /> : null;
}

function PhoneForm({ member, onClose, onDone }: { member: RouterItem; onClose: () => void; onDone: () => void }) {
  const old = member.phone ? splitPhone(member.phone, member.area_number) : null;
  const [form] = Form.useForm<Values>();
  const mode = useVerifyMode<PhoneBody>({
    send: (body) => call(routerPhone, { body }),
    proof: old ? (code) => ({ router_name: member.router_name, type: BIND_TYPE.verify, area_code: old.area, phone: old.phone, code }) : null,
    clearCode: () => form.setFieldValue('code', ''),
    // The refused phone may have been a new one: the form shows the old phone it now proves.
    onRefused: () => {
      if (!old) return;
      form.setFieldsValue({ area_code: old.area, phone: old.phone });
      form.setFields([{ name: 'phone', errors: [] }]);
    },
    onDone,
  });
  const { verifying, busy } = mode;

  const submit = (v: Values) =>
    verifying
      ? mode.verify(v.code.trim())
      : mode.request({ router_name: member.router_name, type: BIND_TYPE.bind, area_code: v.area_code, phone: v.phone.trim(), code: v.code.trim() });

  const unbind = () => mode.request({ router_name: member.router_name, type: BIND_TYPE.bind, area_code: '', phone: '', code: '' });

  /** Editing the phone is a new bind: verify mode ends and the refused request is dropped. */
  const edited = mode.leave;

  /** Leaving the phone field while it holds the old phone: only proving it is left to do. */
  const blurred = () => {
    if (!old || verifying) return;
    const { area_code, phone } = form.getFieldsValue(['area_code', 'phone']) as Values;
    if (phone.trim() === old.phone && area_code === old.area) mode.enter();
  };

  const footer = [
    ...(old && !verifying
      ? [
          <Button key="unbind" danger onClick={unbind} disabled={busy}>
            {routerMessages.memberUnbind}
          </Button>,
        ]
      : []),
    <Button key="cancel" onClick={onClose}>
      {BM.cancel}
    </Button>,
    // A fresh button per mode, so antd's loading state cannot outlive the request that switched it.
    <Button key={verifying ? 'verify' : 'bind'} type="primary" loading={busy} onClick={() => form.submit()}>
      {verifying ? routerMessages.memberVerifyButton : routerMessages.memberBindButton}
    </Button>,
  ];

  return (
    <Modal title={old ? routerMessages.memberPhoneChangeTitle : routerMessages.memberPhoneBindTitle} open onCancel={onClose} footer={footer} destroyOnHidden>
      <Form<Values>
        form={form}
        name="member-phone"
        layout="vertical"
        requiredMark={false}
        initialValues={{ area_code: old?.area ?? LIMITS.defaultAreaCode, phone: old?.phone ?? '', code: '' }}
        onFinish={submit}
      >
        {verifying && old && <Alert type="info" showIcon title={fmt(routerMessages.memberVerifyHint, { phone: phoneValue(old.area, old.phone) })} style={{ marginBottom: 16 }} />}
        <MemberPhoneInput rules={verifying ? [] : rules.phone} required onBlur={blurred} onEdit={edited} />
        <CodeInput
          rules={verifying ? [changeCodeRule] : rules.code}
          sendKey={verifying ? 'verify' : 'bind'}
          extra={verifying ? accountMessages.codeArrivalHint : undefined}
          onSend={() =>
            verifying && old
              ? sendCodeTo('phone', 'app_change_phone', async () => phoneValue(old.area, old.phone))
              : sendCodeTo('phone', 'app_bind_phone', () => typedPhone(form))
          }
        />
      </Form>
    </Modal>
  );
}
