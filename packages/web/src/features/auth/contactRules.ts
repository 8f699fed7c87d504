import { BM, emailValueField, phoneValue, phoneValueField, type SendType } from '@hublink/contract';
import type { Rule } from 'antd/es/form';

/**
 * The first message a phone (with its dial code) or an email fails with, or null. These are the
 * checks of the API's send_value: '手机号码不能为空' / '请输入最低4位数的手机号码', '邮箱号不能为空' /
 * '请输入正确的邮箱'.
 */
export function contactError(type: SendType, value: unknown, area: string): string | null {
  const text = typeof value === 'string' ? value : '';
  if (type === 'phone') {
    if (!text.trim()) return BM.phoneRequired;
    const r = phoneValueField.safeParse(phoneValue(area, text));
    return r.success ? null : (r.error.issues[0]?.message ?? BM.phoneMin);
  }
  const r = emailValueField.safeParse(text);
  return r.success ? null : (r.error.issues[0]?.message ?? BM.emailInvalid);
}

/** Form rule for a phone field whose dial code is in the field `areaField`. */
export const phoneRule =
  (areaField = 'area'): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const msg = contactError('phone', value, String(getFieldValue(areaField) ?? ''));
      if (msg) throw new Error(msg);
    },
  });

/** Form rule for an email field. */
export const emailRule: Rule = {
  validator: async (_rule, value: unknown) => {
    const msg = contactError('email', value, '');
    if (msg) throw new Error(msg);
  },
};
