import { CODE, fmt, ldapMessages, type DataOf, type LdapPreviewUser, previewLdap } from '@hublink/contract';
import { Alert, Button, Empty, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useLdapMutation } from './api';

type Preview = NonNullable<DataOf<typeof previewLdap>>;

const columns = [
  { title: ldapMessages.ldapColUsername, dataIndex: 'username', key: 'username' },
  { title: ldapMessages.ldapColMemberName, dataIndex: 'member_name', key: 'member_name', render: (v: string) => (v ? <Typography.Text code>{v}</Typography.Text> : '—') },
  {
    title: ldapMessages.ldapColDescription,
    dataIndex: 'description',
    key: 'description',
    render: (v: string) => (
      <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 160 }}>
        {v}
      </Typography.Text>
    ),
  },
  { title: ldapMessages.ldapColPhone, dataIndex: 'phone', key: 'phone' },
  { title: ldapMessages.ldapColEmail, dataIndex: 'email', key: 'email' },
  { title: ldapMessages.ldapColIssue, dataIndex: 'issue', key: 'issue', render: (v: string) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : null) },
];

const table = (rows: LdapPreviewUser[], label: string) => (
  <div role="region" aria-label={label}>
    <Table<LdapPreviewUser> size="small" rowKey={(u) => `${u.username}\u0000${u.member_name}`} columns={columns} dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} />
  </div>
);

/**
 * The preview of the LDAP form (issue 33): runs the form's values against the directory (POST
 * /ldap/preview) and shows how many users they select, the first of them with the member names they
 * map to, and the users whose names cannot be imported. `body` validates the form first (null: a field
 * is wrong, its message shows there); `onRefused` puts a refusal under the field it concerns.
 */
export function PreviewPanel({ body, onRefused }: { body: () => Promise<unknown>; onRefused: (msg: string) => void }) {
  const preview = useLdapMutation(previewLdap, { quiet: true, successToast: false, invalidates: [] });
  const [answer, setAnswer] = useState<Preview | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const b = await body();
    if (!b) return;
    setBusy(true);
    try {
      const env = await preview.mutateAsync(b as Parameters<typeof preview.mutateAsync>[0]);
      if (env.code === CODE.ok && env.data) {
        setAnswer(env.data);
        setError('');
      } else {
        setAnswer(null);
        setError(env.msg);
        onRefused(env.msg);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section style={{ marginBottom: 24 }}>
      <Flex align="center" gap={12} wrap style={{ marginBottom: 12 }}>
        <Button onClick={() => void run()} loading={busy} autoInsertSpace={false}>
          {busy ? ldapMessages.ldapPreviewing : ldapMessages.ldapPreview}
        </Button>
        <Typography.Text type="secondary">{answer ? fmt(ldapMessages.ldapPreviewCount, { n: answer.count, m: answer.users.length }) : ldapMessages.ldapPreviewHint}</Typography.Text>
      </Flex>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {answer && answer.count === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={ldapMessages.ldapPreviewEmpty} />}
      {answer && answer.count > 0 && table(answer.users, ldapMessages.ldapPreviewTitle)}
      {answer && answer.issue_count > 0 && (
        <div style={{ marginTop: 12 }}>
          <Typography.Text type="danger">{fmt(ldapMessages.ldapPreviewIssues, { n: answer.issue_count })}</Typography.Text>
          {table(answer.issues, ldapMessages.ldapColIssue)}
        </div>
      )}
    </section>
  );
}
