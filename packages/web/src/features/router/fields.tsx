import { accountMessages, bindCodeField, codeField, LIMITS, memberPhoneError, phoneValue, routerMessages } from '@hublink/contract';
import { Form, Input, Space, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { AreaCodeSelect } from '../../components/AreaCodeSelect';

// The phone and code fields of the member forms, with the contract's member phone rule
// (mainland 1[34578] plus 9 digits, spec 3 §5) and the binding code rule.

const firstIssue = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : (r.error?.issues[0]?.message ?? null));

/** The member phone rule; `optional` lets an empty phone pass (the add form). */
export const memberPhoneRule =
  (optional: boolean): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const phone = typeof value === 'string' ? value : '';
      if (optional && !phone.trim()) return;
      const msg = memberPhoneError(String(getFieldValue('area_code') ?? ''), phone);
      if (msg) throw new Error(msg);
    },
  });

/** The binding code rule ('请输入验证码', then 6 characters); with `whenPhone`, only once a phone is typed. */
export const bindCodeRule =
  (whenPhone: boolean): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (whenPhone && !String(getFieldValue('phone') ?? '').trim()) return;
      const msg = firstIssue(bindCodeField.safeParse(value ?? ''));
      if (msg) throw new Error(msg);
    },
  });

/** The code proving the old phone, the phone change of spec 3 §5 ('验证码不能为空', then 6 characters). */
export const changeCodeRule: Rule = {
  validator: async (_rule, value: unknown) => {
    const msg = firstIssue(codeField().safeParse(value ?? ''));
    if (msg) throw new Error(msg);
  },
};

/**
 * Where a code for the typed phone goes ('+86 13800000000'), or null after showing under the field
 * why the phone cannot take one.
 */
export async function typedPhone(form: FormInstance): Promise<string | null> {
  const area = String(form.getFieldValue('area_code') ?? '');
  const phone = String(form.getFieldValue('phone') ?? '');
  const msg = memberPhoneError(area, phone);
  if (msg) {
    form.setFields([{ name: 'phone', errors: [msg] }]);
    return null;
  }
  return phoneValue(area, phone);
}

export interface MemberPhoneInputProps {
  rules: Rule[];
  required?: boolean;
  placeholder?: string;
  onBlur?: () => void;
  /** The user changed the phone or its dial code (not called for values the form sets itself). */
  onEdit?: () => void;
}

/** Dial code and phone side by side (fields `area_code` and `phone`, phone capped at 11). */
export function MemberPhoneInput({ rules, required, placeholder = accountMessages.bindPhoneRequired, onBlur, onEdit }: MemberPhoneInputProps) {
  return (
    <Form.Item label={routerMessages.memberPhoneLabel} required={required}>
      <Space.Compact block>
        <Form.Item name="area_code" noStyle>
          <AreaCodeSelect onChange={onEdit} />
        </Form.Item>
        <Form.Item name="phone" noStyle rules={rules} dependencies={['area_code']}>
          <Input placeholder={placeholder} aria-label={routerMessages.memberPhoneLabel} inputMode="tel" autoComplete="off" maxLength={LIMITS.mobileMax} onBlur={onBlur} onChange={onEdit} />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}
