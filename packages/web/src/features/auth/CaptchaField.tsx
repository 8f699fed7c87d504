import { BM, LIMITS } from '@hublink/contract';
import { Flex, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { SafetyOutlined } from '@ant-design/icons';
import type { Captcha } from './useCaptcha';

const IMAGE_WIDTH = 120;
const IMAGE_HEIGHT = 40;

export interface CaptchaFieldProps {
  /** Form field name of the typed answer ('code' at login, 'img_code' in recovery). */
  name: string;
  rules: Rule[];
  captcha: Captcha;
  placeholder?: string;
  /** Enter in the field (login submits from here). */
  onPressEnter?: () => void;
}

/** A 4-character image captcha: the input, and the image beside it; clicking the image loads a new one. */
export function CaptchaField({ name, rules, captcha, placeholder = BM.codeLabel, onPressEnter }: CaptchaFieldProps) {
  return (
    <Form.Item required>
      <Flex gap={8} align="center">
        <Form.Item name={name} rules={rules} noStyle>
          <Input
            size="large"
            prefix={<SafetyOutlined />}
            placeholder={placeholder}
            maxLength={LIMITS.captchaLength}
            autoComplete="off"
            onPressEnter={onPressEnter}
            aria-label={placeholder}
          />
        </Form.Item>
        {captcha.content ? (
          <img
            src={captcha.content}
            alt={BM.captchaImageAlt}
            title={BM.captchaRefreshHint}
            width={IMAGE_WIDTH}
            height={IMAGE_HEIGHT}
            onClick={() => void captcha.refresh()}
            style={{ cursor: 'pointer', flex: 'none', borderRadius: 6, border: '1px solid #d9d9d9', background: '#fff' }}
          />
        ) : (
          <div className="hl-captcha-loading" role="status" aria-label={BM.pageLoading} style={{ width: IMAGE_WIDTH, height: IMAGE_HEIGHT }} />
        )}
      </Flex>
    </Form.Item>
  );
}
