import { BM, SAAS_SHARED, type SaasItem, saasMessages, saasRouters } from '@hublink/contract';
import { Badge, Button, Divider, Empty, Flex, Input, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { WideTable } from '../../components/WideTable';
import { BandwidthDialog } from './BandwidthDialog';
import { bandwidthText } from './format';
import { useCanEditDevices } from './rights';
import { SaasNoteDialog } from './SaasNoteDialog';

/** Buttons in the operation column line up with the link beside them. */
const LINK_BUTTON = { padding: 0, height: 'auto' };

export const detailPath = (name: string) => `/saas/detail?router_name=${encodeURIComponent(name)}`;

/** /saas/router (spec 3 §2): the tenant's SaaS devices grouped by category, a divider heading per non-empty group. */
export default function SaasListPage() {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const list = useApiQuery(saasRouters, search ? { search } : {});
  const canEdit = useCanEditDevices();
  const [noting, setNoting] = useState<SaasItem>();
  const [sizing, setSizing] = useState<SaasItem>();
  const groups = list.data?.data;

  const columns: TableColumnsType<SaasItem> = [
    { title: saasMessages.saasColName, dataIndex: 'router_name', key: 'router_name', width: 220, ellipsis: true, render: (v: string) => <Link to={detailPath(v)}>{v}</Link> },
    { title: saasMessages.saasColNote, dataIndex: 'note', key: 'note', width: 220, ellipsis: true },
    {
      title: saasMessages.saasColOnline,
      dataIndex: 'online',
      key: 'online',
      width: 110,
      render: (v: number) => (v === 1 ? <Badge status="success" text={saasMessages.saasOnline} /> : <Badge status="default" text={saasMessages.saasOffline} />),
    },
    {
      title: saasMessages.saasColBandwidth,
      dataIndex: 'bandwidth',
      key: 'bandwidth',
      width: 120,
      render: (v: number) => (v > 0 ? bandwidthText(v) : <Tag color="default">{bandwidthText(v)}</Tag>),
    },
    {
      title: saasMessages.saasColOperation,
      key: 'operation',
      width: 240,
      fixed: 'right',
      render: (_, d) => (
        <Space size={12}>
          <Link to={detailPath(d.router_name)}>{saasMessages.saasViewDetail}</Link>
          {canEdit && (
            <Button type="link" size="small" style={LINK_BUTTON} onClick={() => setNoting(d)}>
              {saasMessages.saasEditNote}
            </Button>
          )}
          {canEdit && d.share === SAAS_SHARED && (
            <Button type="link" size="small" style={LINK_BUTTON} onClick={() => setSizing(d)}>
              {saasMessages.saasEditBandwidth}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={saasMessages.saasListTitle} loading={!groups && list.isLoading}>
      <Flex gap={8} wrap style={{ marginBottom: 8 }}>
        <Input
          allowClear
          value={draft}
          placeholder={saasMessages.saasSearchPlaceholder}
          aria-label={saasMessages.saasSearchPlaceholder}
          style={{ maxWidth: 320, flex: '1 1 200px' }}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={() => setSearch(draft.trim())}
        />
        <Button type="primary" onClick={() => setSearch(draft.trim())}>
          {BM.searchLabel}
        </Button>
      </Flex>
      {groups && groups.length === 0 && <Empty description={BM.empty} />}
      {groups?.map((g) => (
        <section key={g.category} aria-label={g.category || saasMessages.saasUncategorized}>
          <Divider titlePlacement="start">
            <Typography.Text strong>{g.category || saasMessages.saasUncategorized}</Typography.Text>
          </Divider>
          <WideTable<SaasItem>
            rowKey="router_name"
            size="small"
            columns={columns}
            dataSource={g.list}
            pagination={false}
            loading={list.isFetching}
            // Every group's table has the same columns at the same widths, so the groups line up.
            tableLayout="fixed"
          />
        </section>
      ))}
      <SaasNoteDialog device={noting} onClose={() => setNoting(undefined)} />
      <BandwidthDialog device={sizing} onClose={() => setSizing(undefined)} />
    </PageContainer>
  );
}
