import { DownloadOutlined } from '@ant-design/icons';
import { AUDIT_KINDS, type AuditEntry, type AuditKind, auditList, auditMessages, auditSettingGet, auditSettingSave, BM, LIMITS, logsMessages } from '@hublink/contract';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { usePagedList } from '../../api/usePagedList';
import type { Dayjs } from '../../components/dayjs';
import { DAY_FORMAT } from '../../components/logRange';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { AuditDiff } from './AuditDiff';
import { exportAudit } from './exportAudit';
import { KIND_TEXT, objectText, SOURCE_TEXT, whoText } from './labels';
import { useListExport } from '../../components/useListExport';

/** The retention setting: days entries are kept (a daily job removes older ones). */
function RetentionSetting() {
  const current = useApiQuery(auditSettingGet);
  const save = useApiMutation(auditSettingSave, { invalidates: ['/audit/setting'] });
  const days = current.data?.data?.retention_days;
  return (
    <Form
      layout="inline"
      key={days ?? 'loading'}
      initialValues={{ retention_days: days }}
      onFinish={(v: { retention_days: number }) => void save.mutateAsync(v)}
      disabled={days === undefined}
    >
      <Form.Item name="retention_days" label={auditMessages.auditRetention} tooltip={auditMessages.auditRetentionHint} rules={rulesOf(auditSettingSave.body, 'retention_days')}>
        <InputNumber min={LIMITS.auditRetentionDaysMin} max={LIMITS.auditRetentionDaysMax} precision={0} aria-label={auditMessages.auditRetention} />
      </Form.Item>
      <Form.Item>
        <Button htmlType="submit" loading={save.isPending}>
          {BM.save}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** /audit: the tenant's audit trail (issue 18; main accounts): filters, pages, each entry's diff, export, retention. */
export default function AuditPage() {
  const [who, setWho] = useState('');
  const [object, setObject] = useState('');
  const [kind, setKind] = useState<AuditKind | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const filters = {
    ...(who ? { who } : {}),
    ...(object ? { object } : {}),
    ...(kind ? { kind } : {}),
    ...(range ? { start_time: range[0].format(DAY_FORMAT), end_time: range[1].format(DAY_FORMAT) } : {}),
  };
  const list = usePagedList(auditList, { limit: LIMITS.pageSize, ...filters });
  const refilter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    list.setPage(1);
  };

  const { exporting, run: exportRows } = useListExport(list, () => exportAudit({ ...filters, ...(list.searchText ? { search: list.searchText } : {}) }));

  // What was done, by whom and to what first; where from after. No column is fixed: each wraps to fit.
  const columns: TableColumnsType<AuditEntry> = [
    { key: 'create_time', title: auditMessages.auditTime, dataIndex: 'create_time', width: 170 },
    { key: 'who', title: auditMessages.auditWho, render: (_, e) => whoText(e) },
    { key: 'call', title: auditMessages.auditCall, render: (_, e) => <span title={`${e.method} ${e.path}`}>{e.action}</span> },
    { key: 'object', title: auditMessages.auditObject, render: (_, e) => objectText(e) },
    { key: 'kind', title: auditMessages.auditKind, render: (_, e) => <Tag>{KIND_TEXT[e.kind]}</Tag> },
    { key: 'source', title: auditMessages.auditSource, render: (_, e) => SOURCE_TEXT[e.source] },
    { key: 'ip', title: auditMessages.auditIp, render: (_, e) => e.ip || '-' },
    {
      key: 'actions',
      title: auditMessages.auditChanges,
      render: (_, e) => (
        <Button type="link" size="small" onClick={() => setOpen(e)}>
          {auditMessages.auditDetail}
        </Button>
      ),
    },
  ];

  const toolbar = (
    <Space wrap>
      <Input.Search allowClear placeholder={auditMessages.auditWhoSearch} aria-label={auditMessages.auditWhoSearch} onSearch={refilter(setWho)} style={{ width: 160 }} />
      <Input.Search allowClear placeholder={auditMessages.auditObjectSearch} aria-label={auditMessages.auditObjectSearch} onSearch={refilter(setObject)} style={{ width: 180 }} />
      <Select<AuditKind>
        allowClear
        placeholder={auditMessages.auditKind}
        aria-label={auditMessages.auditKind}
        style={{ width: 110 }}
        value={kind}
        onChange={refilter(setKind)}
        options={AUDIT_KINDS.map((k) => ({ value: k, label: KIND_TEXT[k] }))}
      />
      <DatePicker.RangePicker
        value={range}
        format={DAY_FORMAT}
        aria-label={logsMessages.logRange}
        onChange={(v) => refilter(setRange)(v?.[0] && v[1] ? [v[0], v[1]] : null)}
      />
      <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportRows()}>
        {logsMessages.logExport}
      </Button>
    </Space>
  );

  return (
    <PageContainer>
      <div style={{ marginBottom: 16 }}>
        <RetentionSetting />
      </div>
      <PagedTable<AuditEntry> rowKey="id" columns={columns} list={list} toolbar={toolbar} phoneFirst={['call', 'create_time', 'actions']} />
      <AuditDiff entry={open} onClose={() => setOpen(null)} />
    </PageContainer>
  );
}
