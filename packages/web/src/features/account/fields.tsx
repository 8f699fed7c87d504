import { accountMessages, LIMITS, mobileError } from '@hublink/contract';
import { Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { AreaCodeSelect } from '../../components/AreaCodeSelect';

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
            placeholder={accountMessages.bindPhoneRequired}
            aria-label={accountMessages.accountPhone}
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
