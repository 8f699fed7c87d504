import { CODE, compareNetworkVersions, CURRENT_VERSION, fmt, LIMITS, listNetworkVersions, networkHistoryMessages, networkPreviewMessages, type NetworkVersionItem, rollbackNetwork } from '@hublink/contract';
import { Alert, App, Button, Card, Flex, Modal, Spin, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/hooks';
import { WideTable } from '../../components/WideTable';
import { useNetworkMutation } from './api';
import { EffectList } from '../../components/EffectList';
import { VersionDiffTable } from './VersionDiffTable';

/**
 * 配置历史 (issue 18): the network's versions (version, time, who, summary), any two compared side by
 * side, and 回滚到此版本 after a confirmation that shows what will change (the current configuration
 * against that version).
 */
export function HistoryCard({ networkNumber, canRollback }: { networkNumber: string; canRollback: boolean }) {
  const { modal } = App.useApp();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[number, number] | null>(null);
  const [onlyChanged, setOnlyChanged] = useState(true);
  const [preparing, setPreparing] = useState<number | null>(null);
  const list = useApiQuery(listNetworkVersions, { network_number: networkNumber, page, limit: LIMITS.pageSize });
  const compared = useApiQuery(
    compareNetworkVersions,
    comparing ? { network_number: networkNumber, a: comparing[0], b: comparing[1] } : undefined,
    { enabled: comparing !== null },
  );
  const rollback = useNetworkMutation(rollbackNetwork);
  // Newest first: the first row of the first page is the current version (later pages hold only older ones).
  const latest = page === 1 ? list.data?.data?.[0]?.version : undefined;

  const confirmRollback = async (version: number) => {
    setPreparing(version);
    try {
      const diff = await call(compareNetworkVersions, { query: { network_number: networkNumber, a: CURRENT_VERSION, b: version } });
      if (diff.code !== CODE.ok || !diff.data) return;
      modal.confirm({
        title: fmt(networkHistoryMessages.histRollbackTo, { n: version }),
        width: 720,
        content: (
          <Flex vertical gap={8}>
            <Typography.Text>{fmt(networkHistoryMessages.histRollbackConfirm, { n: version })}</Typography.Text>
            <VersionDiffTable rows={diff.data.rows.filter((r) => r.changed)} labelA={networkHistoryMessages.histCurrent} labelB={fmt(networkHistoryMessages.histRollbackTo, { n: version })} />
          </Flex>
        ),
        onOk: async () => {
          const env = await rollback.mutateAsync({ network_number: networkNumber, version });
          if (env.code === CODE.ok) {
            setPage(1);
            setSelected([]);
          }
        },
      });
    } finally {
      setPreparing(null);
    }
  };

  const columns: ColumnsType<NetworkVersionItem> = [
    { title: networkHistoryMessages.histColVersion, dataIndex: 'version', key: 'version', width: 70 },
    { title: networkHistoryMessages.histColTime, dataIndex: 'create_time', key: 'create_time', width: 170 },
    { title: networkHistoryMessages.histColWho, dataIndex: 'who', key: 'who', width: 160 },
    {
      title: networkHistoryMessages.histColSummary,
      dataIndex: 'summary',
      key: 'summary',
      // A save that cut pairs off says so at a glance; its row opens to the whole list.
      render: (summary: string, r: NetworkVersionItem) => {
        const lost = (r.effect?.reach ?? []).filter((x) => !x.gained).length;
        return (
          <>
            {summary}
            {lost > 0 && (
              <Tag color="red" style={{ marginInlineStart: 8 }}>
                {fmt(networkPreviewMessages.effectReachLost, { n: lost })}
              </Tag>
            )}
          </>
        );
      },
    },
    ...(canRollback
      ? [
          {
            title: '',
            key: 'action',
            width: 120,
            // The newest version is what the network is now: nothing to roll back to.
            render: (_: unknown, r: NetworkVersionItem) =>
              r.version === latest ? (
                <Tag color="blue">{networkHistoryMessages.histCurrentVersion}</Tag>
              ) : (
                <Button size="small" type="link" loading={preparing === r.version} onClick={() => void confirmRollback(r.version)}>
                  {networkHistoryMessages.histRollback}
                </Button>
              ),
          },
        ]
      : []),
  ];

  const pair = [...selected].sort((x, y) => x - y);
  const rows = compared.data?.data?.rows ?? [];
  return (
    <Card
      variant="borderless"
      title={networkHistoryMessages.histTab}
      role="region"
      aria-label={networkHistoryMessages.histTab}
      extra={
        <Button size="small" autoInsertSpace={false} aria-label={networkHistoryMessages.histCompare} disabled={pair.length !== 2} onClick={() => setComparing([pair[0]!, pair[1]!])}>
          {networkHistoryMessages.histCompare}
        </Button>
      }
    >
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title={networkHistoryMessages.histLoadFailed}
          action={
            <Button size="small" aria-label={networkHistoryMessages.histRetry} onClick={() => void list.refetch()}>
              {networkHistoryMessages.histRetry}
            </Button>
          }
        />
      ) : (
        <>
          <Typography.Text type="secondary">{networkHistoryMessages.histComparePick}</Typography.Text>
          <WideTable<NetworkVersionItem>
            size="small"
            rowKey="version"
            phoneFirst={['version', 'summary', 'action']}
            columns={columns}
            loading={list.isLoading}
            dataSource={list.data?.data ?? []}
            rowSelection={{
              selectedRowKeys: selected,
              hideSelectAll: true,
              onChange: (keys) => setSelected(keys.map(Number).slice(-2)),
              getCheckboxProps: (r) => ({ 'aria-label': `${networkHistoryMessages.histColVersion} ${r.version}` }),
            }}
            expandable={{
              rowExpandable: (r) => r.effect !== null,
              expandedRowRender: (r) => (
                <section aria-label={`${networkPreviewMessages.effectTitle} ${networkHistoryMessages.histColVersion} ${r.version}`}>
                  <Typography.Text strong>{networkPreviewMessages.effectTitle}</Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <EffectList effect={r.effect!} tense="did" />
                  </div>
                </section>
              ),
            }}
            pagination={{ current: page, pageSize: LIMITS.pageSize, total: list.data?.count ?? 0, hideOnSinglePage: true, showSizeChanger: false, onChange: setPage }}
          />
        </>
      )}
      <Modal
        open={comparing !== null}
        title={comparing ? fmt(networkHistoryMessages.histCompareTitle, { a: comparing[0], b: comparing[1] }) : ''}
        onCancel={() => setComparing(null)}
        footer={null}
        width={820}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          <Flex gap={8} align="center">
            <Switch size="small" checked={onlyChanged} onChange={setOnlyChanged} aria-label={networkHistoryMessages.histOnlyChanged} />
            <Typography.Text>{networkHistoryMessages.histOnlyChanged}</Typography.Text>
          </Flex>
          {compared.isError ? (
            <Alert type="error" showIcon title={networkHistoryMessages.histLoadFailed} />
          ) : (
            compared.isLoading && <Spin />
          )}
          {comparing && compared.data?.data && (
            <VersionDiffTable
              rows={onlyChanged ? rows.filter((r) => r.changed) : rows}
              labelA={fmt(networkHistoryMessages.histVersionNumbered, { label: networkHistoryMessages.histVersionA, n: comparing[0] })}
              labelB={fmt(networkHistoryMessages.histVersionNumbered, { label: networkHistoryMessages.histVersionB, n: comparing[1] })}
            />
          )}
        </Flex>
      </Modal>
    </Card>
  );
}
