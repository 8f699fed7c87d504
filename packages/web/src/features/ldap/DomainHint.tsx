import { CODE, downloadLdapVerifyFile, fmt, ldapMessages, verifyLdapDomain } from '@hublink/contract';
import { Alert, Button, Flex, Grid, Typography } from 'antd';
import { download } from '../../api/files';
import { LDAP_CALL, useLdapMutation } from './api';
import { useState } from 'react';

export interface PendingDomain {
  domain: string;
  /** The server's 423 message. */
  message: string;
  /** The verification file to place on the domain. */
  file_name: string;
  /** Or the TXT record to publish: its name and value (issue 33; '' from an older server). */
  txt_name?: string;
  txt_value?: string;
}

/**
 * A domain whose ownership is not verified yet (spec 3 §4, §8: code 423): the server's message, the
 * two ways to prove it (the file to place, or the TXT record to publish, its value copyable), and the
 * actions download the file and verify ('验证中...' while it runs). A refused verification shows under
 * the domain field (`onRefused`); a verified domain ends the hint. On a phone the actions go under the
 * text, in a row, instead of a column beside it that would leave the record's value a few letters wide.
 */
export function DomainHint({ pending, onVerified, onRefused }: { pending: PendingDomain; onVerified: () => void; onRefused: (message: string) => void }) {
  const verify = useLdapMutation(verifyLdapDomain, { quiet: true });
  const [downloading, setDownloading] = useState(false);
  const check = async () => {
    const env = await verify.mutateAsync({ domain: pending.domain });
    if (env.code === CODE.ok) onVerified();
    else onRefused(env.msg);
  };
  const narrow = Grid.useBreakpoint().sm === false;
  const actions = (
    <Flex vertical={!narrow} gap={8} wrap>
      <Button
        size="small"
        loading={downloading}
        onClick={() => {
          setDownloading(true);
          void download(downloadLdapVerifyFile, { domain: pending.domain }, pending.file_name, LDAP_CALL.timeoutMs).finally(() => setDownloading(false));
        }}
      >
        {ldapMessages.ldapDownloadFile}
      </Button>
      <Button size="small" type="primary" loading={verify.isPending} onClick={() => void check()}>
        {verify.isPending ? ldapMessages.ldapVerifying : ldapMessages.ldapVerify}
      </Button>
    </Flex>
  );
  return (
    <Alert
      type="warning"
      showIcon
      title={pending.message}
      description={
        <Flex vertical gap={4}>
          <span>{fmt(ldapMessages.ldapVerifyFile, { name: pending.file_name })}</span>
          {pending.txt_name && pending.txt_value ? (
            <Typography.Text style={{ wordBreak: 'break-all' }} copyable={{ text: pending.txt_value }}>
              {fmt(ldapMessages.ldapVerifyTxt, { name: pending.txt_name, value: pending.txt_value })}
            </Typography.Text>
          ) : null}
          {narrow ? actions : null}
        </Flex>
      }
      action={narrow ? undefined : actions}
    />
  );
}
