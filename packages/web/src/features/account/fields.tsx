import { LIMITS, mobileError, sendCode, CODE, type SendType, type VerifyType } from '@hublink/contract';
import { Flex, Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { call } from '../../api/client';
import CodeButton from '../../components/CodeButton';
import { AreaCodeSelect } from '../auth/AreaCodeSelect';

/** Form rule for a mobile number whose dial code is in `areaField` (spec 1 §5: mainland 1[3-8]…). */
export const mobileRule =
  (required: string, areaField = 'area_code'): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const msg = mobileError(String(getFieldValue(areaField) ?? ''), typeof value === 'string' ? value : '', required);
      if (msg) throw new Error(msg);
    },
  });

/** Dial code and mobile number side by side; fields `area_code` and `phone`. */
export function MobileInput({ label, rules, disabled }: { label: string; rules: Rule[]; disabled?: boolean }) {
  return (
    <Form.Item label={label} required>
      <Space.Compact block>
        <Form.Item name="area_code" noStyle>
          <AreaCodeSelect disabled={disabled} />
        </Form.Item>
        <Form.Item name="phone" noStyle rules={rules} dependencies={['area_code']}>
          <Input
            placeholder="请输入手机号码"
            aria-label="手机号码"
            inputMode="tel"
            autoComplete="tel-national"
            maxLength={LIMITS.mobileMax}
            disabled={disabled}
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}

/**
 * Sends a code through /verify/send_code; resolves true when it went out. `target` returns the
 * destination or null when the form's own checks of it failed (they show their messages).
 */
export async function sendCodeTo(type: SendType, verify_type: VerifyType, target: () => Promise<string | null>): Promise<boolean> {
  const value = await target();
  if (!value) return false;
  const env = await call(sendCode, { body: { send_type: type, send_value: value, verify_type } });
  return env.code === CODE.ok;
}

/** The code input and its "get code" button; field `code`. */
export function CodeInput({ rules, onSend, extra, sendKey }: { rules: Rule[]; onSend: () => Promise<boolean>; extra?: string; sendKey?: string }) {
  return (
    <Form.Item label="验证码" required extra={extra}>
      <Flex gap={8}>
        <Form.Item name="code" noStyle rules={rules}>
          <Input placeholder="请输入验证码" aria-label="验证码" maxLength={LIMITS.codeLength} autoComplete="one-time-code" />
        </Form.Item>
        <CodeButton key={sendKey} onSend={onSend} style={{ flex: 'none' }} />
      </Flex>
    </Form.Item>
  );
}
