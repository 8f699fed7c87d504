import { UploadOutlined } from '@ant-design/icons';
import { CODE, LDAP_CA_EXTENSIONS, ldapMessages, LIMITS, uploadLdapCa } from '@hublink/contract';
import { Button, Flex, Typography, Upload } from 'antd';
import { useState } from 'react';
import { upload } from '../../api/files';
import { toast } from '../../api/notify';
import { LDAP_CALL } from './api';

/** Why a CA file cannot be uploaded (spec 3 §5: cert, crt, cer, pem; under 2 MB), or null. */
export function caRefusal(file: { name: string; size: number }): string | null {
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!(LDAP_CA_EXTENSIONS as readonly string[]).includes(ext)) return ldapMessages.ldapCaFormat;
  if (file.size > LIMITS.uploadMaxBytes) return ldapMessages.ldapCaTooLarge;
  return null;
}

export interface CaUploadProps {
  /** The uploaded file's id (the form's ca_id). */
  value?: number | null;
  onChange?: (id: number | null) => void;
  /** The uploaded file's name as shown. */
  fileName: string;
  onFileName: (name: string) => void;
}

/**
 * The CA certificate of LDAPS or StartTLS: picked, checked by name and size, then uploaded at once; the
 * form keeps its id. A refused upload shows the server's message and clears the name (spec 3 §8).
 */
export function CaUpload({ value, onChange, fileName, onFileName }: CaUploadProps) {
  const [uploading, setUploading] = useState(false);
  const accept = LDAP_CA_EXTENSIONS.map((e) => `.${e}`).join(',');
  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center" wrap>
        <Upload
          accept={{ format: accept, filter: 'native' }}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            const refusal = caRefusal(file);
            if (refusal) {
              toast.error(refusal);
              return Upload.LIST_IGNORE;
            }
            setUploading(true);
            void upload(uploadLdapCa, file, LDAP_CALL)
              .then((env) => {
                const ok = env.code === CODE.ok && env.data;
                onChange?.(ok ? env.data!.ca_id : null);
                onFileName(ok ? env.data!.file_name : '');
              })
              .finally(() => setUploading(false));
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={uploading}>
            {ldapMessages.ldapCaUpload}
          </Button>
        </Upload>
        {value != null && fileName && <Typography.Text>{fileName}</Typography.Text>}
      </Flex>
      <Typography.Text type="secondary">{ldapMessages.ldapCaHint}</Typography.Text>
    </Flex>
  );
}
