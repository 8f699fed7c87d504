import { LIMITS, routerMessages, saasConnect, type SaasConnectItem, saasMessages, saasTraffic } from '@hublink/contract';
import { Empty, Spin, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useApiQuery } from '../../api/hooks';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { PagedTable } from '../PagedTable';
import { Chart, type ChartOption } from './Chart';
import { bytes, duration } from './format';

const columns: TableColumnsType<SaasConnectItem> = [
  { title: saasMessages.saasDialIp, dataIndex: 'ip', key: 'ip' },
  { title: saasMessages.saasDialOrigin, dataIndex: 'origin', key: 'origin' },
  { title: saasMessages.saasInput, dataIndex: 'input', key: 'input', render: (v: number) => bytes(v) },
  { title: saasMessages.saasOut, dataIndex: 'out', key: 'out', render: (v: number) => bytes(v) },
  { title: saasMessages.saasDialSessionDate, dataIndex: 'session_date', key: 'session_date', width: 170 },
  { title: saasMessages.saasDialOnlineTime, dataIndex: 'online_time', key: 'online_time', render: (v: number) => duration(v) },
  { title: saasMessages.saasDialStopTime, dataIndex: 'stop_time', key: 'stop_time', width: 170, render: (v: string) => v || routerMessages.memberDialOngoing },
];

/** The traffic tab: the per-minute traffic chart of the last hours and the dial-in records. */
export function TrafficTab({ routerName }: { routerName: string }) {
  const traffic = useApiQuery(saasTraffic, { router_name: routerName }, { on204: 'stay' });
  const points = traffic.data?.data;
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: [saasMessages.saasTrafficDown, saasMessages.saasTrafficUpload], top: 0, right: 0 },
      grid: { left: 48, right: 16, top: 40, bottom: 28 },
      xAxis: { type: 'category', boundaryGap: false, data: (points ?? []).map((p) => p.time.slice(11, 16)) },
      yAxis: { type: 'value', name: 'Mbps' },
      series: [
        { name: saasMessages.saasTrafficDown, type: 'line', showSymbol: false, areaStyle: { opacity: 0.15 }, data: (points ?? []).map((p) => p.down) },
        { name: saasMessages.saasTrafficUpload, type: 'line', showSymbol: false, areaStyle: { opacity: 0.15 }, data: (points ?? []).map((p) => p.upload) },
      ],
    }),
    [points],
  );
  const list = usePagedList(saasConnect, { limit: LIMITS.pageSize, router_name: routerName }, { on204: 'stay' });
  useStepBackWhenEmpty(list);

  return (
    <>
      {!points ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : points.length === 0 ? (
        <Empty description={saasMessages.saasNoData} />
      ) : (
        <Chart option={option} label={saasMessages.saasTabTraffic} />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {saasMessages.saasDialTitle}
      </Typography.Title>
      <PagedTable<SaasConnectItem>
        rowKey={(r) => `${r.session_date}-${r.ip}-${r.origin}`}
        size="small"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={saasMessages.saasDialSearch}
        scroll={{ x: 'max-content' }}
      />
    </>
  );
}
