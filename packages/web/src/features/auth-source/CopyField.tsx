import { CopyOutlined } from '@ant-design/icons';
import { authSourceMessages } from '@hublink/contract';
import { Button, Input, Space } from 'antd';
import { copyText } from './copy';

export interface CopyFieldProps {
  /** The field's label, also the name of its input and copy button for assistive technology. */
  label: string;
  value: string;
  /** Shown instead of an empty value. */
  empty?: string;
}

/** A read-only value with a copy button beside it (white_ip, auth_domain, the ID code). */
export function CopyField({ label, value, empty }: CopyFieldProps) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input readOnly value={value} placeholder={empty} aria-label={label} />
      <Button icon={<CopyOutlined />} disabled={!value} onClick={() => void copyText(value)} aria-label={`${authSourceMessages.authSourceActionCopy}${label}`} />
    </Space.Compact>
  );
}
