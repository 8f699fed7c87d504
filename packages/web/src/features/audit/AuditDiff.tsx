import { auditFieldName, auditTableName, fmt, isAuditInstant, M, type AuditEntry, type AuditField } from '@hublink/contract';
import { Descriptions, Drawer, Empty, Table, Tag, Typography } from 'antd';
import dayjs from '../../components/dayjs';
import { DATE_TIME_FORMAT } from '../../components/device/analysisRange';
import { KIND_TEXT, OP_TEXT, whoText } from './labels';

const show = (field: string, v: AuditField['before']) => (v === null ? '' : isAuditInstant(field, v) ? dayjs(v).format(DATE_TIME_FORMAT) : String(v));

/** One entry's call and its changes: per changed row, a table of field | 修改前 | 修改后 (a secret only as 已修改). */
export function AuditDiff({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  return (
    <Drawer open={entry !== null} onClose={onClose} title={M.auditDetail} size="large" destroyOnHidden>
      {entry && (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={M.auditTime}>{entry.create_time}</Descriptions.Item>
            <Descriptions.Item label={M.auditWho}>{whoText(entry)}</Descriptions.Item>
            <Descriptions.Item label={M.auditIp}>{entry.ip}</Descriptions.Item>
            <Descriptions.Item label={M.auditUserAgent}>{entry.user_agent}</Descriptions.Item>
            <Descriptions.Item label={M.auditPath}>{`${entry.method} ${entry.path}`}</Descriptions.Item>
            <Descriptions.Item label={M.auditCall}>{entry.msg}</Descriptions.Item>
            <Descriptions.Item label={M.auditKind}>{KIND_TEXT[entry.kind]}</Descriptions.Item>
          </Descriptions>
          {entry.changes.length === 0 && <Empty style={{ marginTop: 24 }} description={M.auditNoChanges} />}
          {entry.changes.map((c, i) => (
            <div key={i} style={{ marginTop: 24 }} data-testid="audit-change">
              <Typography.Title level={5}>
                <Tag>{OP_TEXT[c.op]}</Tag>
                {auditTableName(c.table)}
                {c.id !== null ? ` #${c.id}` : ''}
              </Typography.Title>
              <Table<AuditField>
                size="small"
                rowKey="field"
                pagination={false}
                dataSource={c.fields}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: M.auditField, render: (_, f) => <span title={f.field}>{auditFieldName(f.field)}</span> },
                  { title: M.auditBefore, render: (_, f) => (f.secret ? <Tag color="orange">{M.auditSecretChanged}</Tag> : <span style={{ wordBreak: 'break-all' }}>{show(f.field, f.before)}</span>) },
                  { title: M.auditAfter, render: (_, f) => (f.secret ? <Tag color="orange">{M.auditSecretChanged}</Tag> : <span style={{ wordBreak: 'break-all' }}>{show(f.field, f.after)}</span>) },
                ]}
              />
            </div>
          ))}
          {entry.more > 0 && <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>{fmt(M.auditMore, { n: entry.more })}</Typography.Paragraph>}
        </>
      )}
    </Drawer>
  );
}
