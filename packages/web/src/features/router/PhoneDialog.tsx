import { BIND_TYPE, CODE, fmt, LIMITS, M, phoneValue, routerPhone, type Envelope, type RouterItem } from '@hublink/contract';
import { Alert, Button, Form, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';
import { CodeInput, sendCodeTo } from '../account/fields';
import { useReloadMembers } from './api';
import { bindCodeRule, MemberPhoneInput, memberPhoneRule, typedPhone } from './fields';
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
  const [verifying, setVerifying] = useState(false);
  const [busy, setBusy] = useState(false);
  const pending = useRef<PhoneBody | null>(null);

  const send = (body: PhoneBody): Promise<Envelope> => call(routerPhone, { body });

  const done = () => {
    pending.current = null;
    onDone();
  };

  const enterVerify = () => {
    if (!old) return;
    form.setFieldsValue({ area_code: old.area, phone: old.phone, code: '' });
    form.setFields([{ name: 'phone', errors: [] }]);
    setVerifying(true);
  };

  /** A type-1 request; 401/403 keep it for after the old phone is proven. */
  const request = async (body: PhoneBody) => {
    const env = await send(body);
    if (env.code === CODE.ok) return done();
    if ((env.code === CODE.flow401 || env.code === CODE.flow403) && old) {
      pending.current = body;
      enterVerify();
    }
  };

  const verify = async (code: string) => {
    if (!old) return;
    const env = await send({ router_name: member.router_name, type: BIND_TYPE.verify, area_code: old.area, phone: old.phone, code });
    if (env.code !== CODE.ok) return;
    setVerifying(false);
    form.setFieldValue('code', '');
    const next = pending.current;
    pending.current = null;
    if (next && (await send(next)).code === CODE.ok) done();
  };

  const run = async (job: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await job();
    } finally {
      setBusy(false);
    }
  };

  const submit = (v: Values) =>
    void run(() =>
      verifying
        ? verify(v.code.trim())
        : request({ router_name: member.router_name, type: BIND_TYPE.bind, area_code: v.area_code, phone: v.phone.trim(), code: v.code.trim() }),
    );

  const unbind = () => void run(() => request({ router_name: member.router_name, type: BIND_TYPE.bind, area_code: '', phone: '', code: '' }));

  /** Editing the phone is a new bind: verify mode ends and the refused request is dropped. */
  const edited = () => {
    pending.current = null;
    setVerifying(false);
  };

  /** Leaving the phone field while it holds the old phone: only proving it is left to do. */
  const blurred = () => {
    if (!old || verifying) return;
    const { area_code, phone } = form.getFieldsValue(['area_code', 'phone']) as Values;
    if (phone.trim() === old.phone && area_code === old.area) setVerifying(true);
  };

  const footer = [
    ...(old && !verifying
      ? [
          <Button key="unbind" danger onClick={unbind} disabled={busy}>
            {M.memberUnbind}
          </Button>,
        ]
      : []),
    <Button key="cancel" onClick={onClose}>
      {M.memberClose}
    </Button>,
    // A fresh button per mode, so antd's loading state cannot outlive the request that switched it.
    <Button key={verifying ? 'verify' : 'bind'} type="primary" loading={busy} onClick={() => form.submit()}>
      {verifying ? M.memberVerifyButton : M.memberBindButton}
    </Button>,
  ];

  return (
    <Modal title={old ? M.memberPhoneChangeTitle : M.memberPhoneBindTitle} open onCancel={onClose} footer={footer} destroyOnHidden>
      <Form<Values>
        form={form}
        name="member-phone"
        layout="vertical"
        requiredMark={false}
        initialValues={{ area_code: old?.area ?? LIMITS.defaultAreaCode, phone: old?.phone ?? '', code: '' }}
        onFinish={submit}
      >
        {verifying && old && <Alert type="info" showIcon title={fmt(M.memberVerifyHint, { phone: phoneValue(old.area, old.phone) })} style={{ marginBottom: 16 }} />}
        <MemberPhoneInput rules={verifying ? [] : rules.phone} required onBlur={blurred} onEdit={edited} />
        <CodeInput
          rules={rules.code}
          sendKey={verifying ? 'verify' : 'bind'}
          extra={verifying ? M.codeArrivalHint : undefined}
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
