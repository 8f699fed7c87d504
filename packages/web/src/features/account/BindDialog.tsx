import { accountMessages, BIND_TYPE, bindCodeField, bindEmailField, BM, defaultEmail, defaultPhone, fmt, LIMITS, phoneValue } from '@hublink/contract';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { browser, call } from '../../api/client';
import { rulesOf } from '../../api/rules';
import { reloadUser } from '../../session/user';
import { sendCodeTo } from '../../api/sendCodeTo';
import { useVerifyMode } from '../../api/useVerifyMode';
import { CodeInput } from '../../components/CodeInput';
import { MobileInput, mobileRule } from './fields';

export type BindKind = 'phone' | 'email';

interface Values {
  area_code: string;
  phone: string;
  email: string;
  code: string;
}

/** A body the dialog sends (type 1 bind or unbind, type 2 verify). */
type BindBody = { type: number; code: string; area_code?: string; phone?: string; email?: string };

/** The dialog's own fields, so its rules come from the contract like every other form's. */
const bindFields = z.object({ email: bindEmailField, code: bindCodeField });

const rules = {
  phone: [mobileRule(accountMessages.bindPhoneRequired)],
  email: rulesOf(bindFields, 'email'),
  code: rulesOf(bindFields, 'code'),
};

const TEXT = {
  phone: { title: accountMessages.bindPhoneTitle, verifyTitle: accountMessages.verifyOldPhone, current: accountMessages.oldPhone, endpoint: defaultPhone, bindCode: 'bind_phone', verifyCode: 'verify_phone' },
  email: { title: accountMessages.bindEmailTitle, verifyTitle: accountMessages.verifyOldEmail, current: accountMessages.oldEmail, endpoint: defaultEmail, bindCode: 'bind_email', verifyCode: 'verify_email' },
} as const;

export interface BindDialogProps {
  kind: BindKind;
  open: boolean;
  /** The bound value ('' when none): verify mode keeps it on screen and sends its code there. */
  current: string;
  onClose: () => void;
}

/**
 * The phone / email binding dialog (spec 1 §4, docs/decisions.md "Binding dialogs"). Type 1 binds a
 * new value with its code, or with empty values unbinds. On code 401 or 403 the dialog enters verify
 * mode: it keeps the old value, takes a code sent to it (type 2), and then repeats the pending request.
 * Success shows the message and reloads the page after LIMITS.bindReloadMs.
 */
export function BindDialog({ kind, open, current, onClose }: BindDialogProps) {
  const text = TEXT[kind];
  const [form] = Form.useForm<Values>();
  const reload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(reload.current), []);

  const mode = useVerifyMode<BindBody>({
    send: (body) => call(text.endpoint, { body: body as never }),
    proof: (code) => ({ type: BIND_TYPE.verify, code }),
    clearCode: () => form.setFieldValue('code', ''),
    onDone: () => {
      onClose();
      // The user message (phone, email) is kept in the session: refresh it before the page reloads.
      reload.current = setTimeout(() => void reloadUser().finally(() => browser.reload()), LIMITS.bindReloadMs);
    },
  });
  const { verifying, busy } = mode;

  const close = () => {
    mode.leave();
    onClose();
  };

  const submit = (v: Values) =>
    verifying
      ? mode.verify(v.code.trim())
      : mode.request(
          kind === 'phone'
            ? { type: BIND_TYPE.bind, area_code: v.area_code, phone: v.phone.trim(), code: v.code.trim() }
            : { type: BIND_TYPE.bind, email: v.email.trim(), code: v.code.trim() },
        );

  const unbind = () =>
    mode.request(kind === 'phone' ? { type: BIND_TYPE.bind, area_code: '', phone: '', code: '' } : { type: BIND_TYPE.bind, email: '', code: '' });

  const newTarget = async () => {
    try {
      const v = (await form.validateFields(kind === 'phone' ? ['area_code', 'phone'] : ['email'])) as Values;
      return kind === 'phone' ? phoneValue(v.area_code, v.phone) : v.email.trim();
    } catch {
      return null;
    }
  };

  const footer = [
    ...(current && !verifying
      ? [
          <Button key="unbind" danger onClick={unbind} disabled={busy}>
            {accountMessages.unbindAction}
          </Button>,
        ]
      : []),
    <Button key="cancel" onClick={close}>
      {BM.cancel}
    </Button>,
    // Keyed by mode: a fresh button when the dialog switches to verify mode, so antd's own loading
    // state cannot outlive the request that switched it (seen stuck in Chromium otherwise).
    <Button key={verifying ? 'verify' : 'bind'} type="primary" loading={busy} onClick={() => form.submit()}>
      {verifying ? accountMessages.verifyAction : accountMessages.bindAction}
    </Button>,
  ];

  return (
    <Modal title={verifying ? text.verifyTitle : text.title} open={open} onCancel={close} footer={footer} destroyOnHidden>
      <Form<Values>
        form={form}
        name={`bind-${kind}`}
        layout="vertical"
        requiredMark={false}
        initialValues={{ area_code: LIMITS.defaultAreaCode, phone: '', email: '', code: '' }}
        onFinish={submit}
      >
        {verifying ? (
          <>
            <Typography.Paragraph type="secondary">{fmt(accountMessages.verifyOldFirst, { target: text.current })}</Typography.Paragraph>
            <Form.Item label={text.current}>
              <Input value={current} disabled aria-label={text.current} />
            </Form.Item>
            <CodeInput
              key="verify"
              rules={rules.code}
              sendKey="verify"
              extra={accountMessages.codeArrivalHint}
              onSend={() => sendCodeTo(kind, text.verifyCode, async () => current)}
            />
          </>
        ) : (
          <>
            {kind === 'phone' ? (
              <MobileInput label={accountMessages.accountPhone} rules={rules.phone} />
            ) : (
              <Form.Item name="email" label={accountMessages.accountEmail} rules={rules.email}>
                <Input placeholder={accountMessages.bindEmailRequired} aria-label={accountMessages.accountEmail} maxLength={LIMITS.emailMax} autoComplete="email" />
              </Form.Item>
            )}
            <CodeInput key="bind" rules={rules.code} sendKey="bind" onSend={() => sendCodeTo(kind, text.bindCode, newTarget)} />
          </>
        )}
      </Form>
    </Modal>
  );
}
