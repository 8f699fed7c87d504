import { type AuditEntry, type AuditField, auditFieldShown, auditMessages, type AuditRowChange, fmt, networkPreviewMessages } from '@hublink/contract';
import { Descriptions, Drawer, Empty, Table, Tag, Typography } from 'antd';
import { EffectList } from '../../components/EffectList';
import { fieldLabel, KIND_TEXT, OP_TEXT, SOURCE_TEXT, tableName, valueText, whoText } from './labels';

const none = (text: string) => text || '-';

/**
 * A value cell: a secret only as 已修改; a value that is not there (an insert's before) stays empty;
 * another row's id by the name recorded with it, or #id in an entry from before names were recorded.
 */
function Value({ change, field, side }: { change: AuditRowChange; field: AuditField; side: 'before' | 'after' }) {
  if (field.secret) return <Tag color="orange">{auditMessages.auditSecretChanged}</Tag>;
  const name = side === 'before' ? field.before_name : field.after_name;
  return <span style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{valueText(change.table, field.field, field[side], name)}</span>;
}

/**
 * One entry: who did what, from where, and per changed row (by its name, else its id) a table of
 * 字段 | 修改前 | 修改后, fields by their console names and values as the console shows them (an insert
 * shows only 修改后, a delete only 修改前).
 */
export function AuditDiff({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  return (
    <Drawer open={entry !== null} onClose={onClose} title={auditMessages.auditDetail} size="large" destroyOnHidden>
      {entry && (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={auditMessages.auditTime}>{entry.create_time}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditWho}>{whoText(entry)}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditCall}>{entry.action}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditSource}>{SOURCE_TEXT[entry.source]}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditIp}>{none(entry.ip)}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditUserAgent}>{entry.source === 'cli' ? '-' : none(entry.user_agent)}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditPath}>{`${entry.method} ${entry.path}`}</Descriptions.Item>
            <Descriptions.Item label={auditMessages.auditKind}>{KIND_TEXT[entry.kind]}</Descriptions.Item>
          </Descriptions>
          {entry.effect && (
            <section aria-label={networkPreviewMessages.effectTitle} style={{ marginTop: 24 }}>
              <Typography.Title level={5}>{networkPreviewMessages.effectTitle}</Typography.Title>
              <EffectList effect={entry.effect} tense="did" />
            </section>
          )}
          {entry.changes.length === 0 && <Empty style={{ marginTop: 24 }} description={auditMessages.auditNoChanges} />}
          {entry.changes.map((c, i) => (
            <div key={i} style={{ marginTop: 24 }} data-testid="audit-change">
              <Typography.Title level={5}>
                <Tag>{OP_TEXT[c.op]}</Tag>
                {tableName(c.table)}
                {c.name ? ` ${c.name}` : c.id !== null ? ` #${c.id}` : ''}
              </Typography.Title>
              <Table<AuditField>
                size="small"
                rowKey="field"
                pagination={false}
                dataSource={c.fields.filter((f) => auditFieldShown(f.field))}
                tableLayout="fixed"
                columns={[
                  { title: auditMessages.auditField, width: '28%', render: (_, f) => <span title={f.field}>{fieldLabel(c.table, f.field)}</span> },
                  ...(c.op === 'insert' ? [] : [{ title: auditMessages.auditBefore, render: (_: unknown, f: AuditField) => <Value change={c} field={f} side="before" /> }]),
                  ...(c.op === 'delete' ? [] : [{ title: auditMessages.auditAfter, render: (_: unknown, f: AuditField) => <Value change={c} field={f} side="after" /> }]),
                ]}
              />
            </div>
          ))}
          {entry.more > 0 && <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>{fmt(auditMessages.auditMore, { n: entry.more })}</Typography.Paragraph>}
        </>
      )}
    </Drawer>
  );
}
