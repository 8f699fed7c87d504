import { BM, LIMITS } from '@hublink/contract';
import { Flex, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import CodeButton from './CodeButton';

/** The code input and its "get code" button; field `code`. */
export function CodeInput({ rules, onSend, extra, sendKey }: { rules: Rule[]; onSend: () => Promise<boolean>; extra?: string; sendKey?: string }) {
  return (
    <Form.Item label={BM.codeLabel} required extra={extra}>
      <Flex gap={8}>
        <Form.Item name="code" noStyle rules={rules}>
          <Input placeholder={BM.codeMin} aria-label={BM.codeLabel} maxLength={LIMITS.codeLength} autoComplete="one-time-code" />
        </Form.Item>
        <CodeButton key={sendKey} onSend={onSend} style={{ flex: 'none' }} />
      </Flex>
    </Form.Item>
  );
}
