import { ANALYSIS_VIEWS, type AnalysisRow, type AnalysisView, BM, saasAppLog, saasAppLogTop, saasMessages, saasOrigLog, saasOrigLogTop } from '@hublink/contract';
import { DatePicker, Empty, Flex, Grid, Segmented, Spin, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import type { Dayjs } from '../dayjs';
import { DATE_TIME_FORMAT, defaultRange, isTopView, outOfRange } from './analysisRange';
import { Chart, type ChartOption } from './Chart';
import { bytes } from './format';

const ENDPOINTS = { app_log: saasAppLog, app_log_top: saasAppLogTop, orig_scr_log: saasOrigLog, orig_scr_log_top: saasOrigLogTop } as const;
const LABELS: Record<AnalysisView, string> = {
  app_log: saasMessages.saasAppLog,
  app_log_top: saasMessages.saasAppLogTop,
  orig_scr_log: saasMessages.saasOrigLog,
  orig_scr_log_top: saasMessages.saasOrigLogTop,
};

const columnsOf = (view: AnalysisView): TableColumnsType<AnalysisRow> => [
  { title: view.startsWith('app') ? saasMessages.saasAppName : saasMessages.saasOrigName, dataIndex: 'name', key: 'name' },
  { title: saasMessages.saasDownload, dataIndex: 'download_flow_sum', key: 'download', render: (v: number) => bytes(v) },
  { title: saasMessages.saasUpload, dataIndex: 'upload_flow_sum', key: 'upload', render: (v: number) => bytes(v) },
];

const tooltipBytes = (v: unknown) => bytes(Number(v));

function barOption(rows: AnalysisRow[]): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: tooltipBytes },
    legend: { data: [saasMessages.saasDownload, saasMessages.saasUpload], top: 0, right: 0 },
    grid: { left: 72, right: 16, top: 40, bottom: 64 },
    xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { rotate: rows.length > 6 ? 30 : 0, interval: 0 } },
    yAxis: { type: 'value', axisLabel: { formatter: tooltipBytes } },
    series: [
      { name: saasMessages.saasDownload, type: 'bar', data: rows.map((r) => r.download_flow_sum) },
      { name: saasMessages.saasUpload, type: 'bar', data: rows.map((r) => r.upload_flow_sum) },
    ],
  };
}

/** Two pies, download and upload: side by side, or one above the other on a narrow screen. */
function pieOption(rows: AnalysisRow[], narrow: boolean): ChartOption {
  const places = narrow
    ? [{ center: ['50%', '32%'], title: { left: '50%', top: 32 } }, { center: ['50%', '78%'], title: { left: '50%', top: '55%' } }]
    : [{ center: ['27%', '58%'], title: { left: '27%', top: 36 } }, { center: ['73%', '58%'], title: { left: '73%', top: 36 } }];
  const series = [
    { name: saasMessages.saasDownload, pick: (r: AnalysisRow) => r.download_flow_sum },
    { name: saasMessages.saasUpload, pick: (r: AnalysisRow) => r.upload_flow_sum },
  ];
  return {
    tooltip: { trigger: 'item', valueFormatter: tooltipBytes },
    title: series.map((s, i) => ({ text: s.name, ...places[i]!.title, textAlign: 'center', textStyle: { fontSize: 14 } })),
    legend: { type: 'scroll', top: 0 },
    series: series.map((s, i) => ({
      name: s.name,
      type: 'pie',
      radius: narrow ? ['22%', '40%'] : ['32%', '62%'],
      center: places[i]!.center,
      label: { show: !narrow && rows.length <= 10 },
      data: rows.map((r) => ({ name: r.name, value: s.pick(r) })),
    })),
  };
}

/** One view's chart and rows for the chosen range. */
function ViewResult({ routerName, view, range }: { routerName: string; view: AnalysisView; range: [Dayjs, Dayjs] }) {
  const result = useApiQuery(
    ENDPOINTS[view],
    { router_name: routerName, start_date: range[0].format(DATE_TIME_FORMAT), end_date: range[1].format(DATE_TIME_FORMAT) },
    { on204: 'stay' },
  );
  const rows = result.data?.data;
  const narrow = !(Grid.useBreakpoint().md ?? true);
  const option = useMemo(() => (rows ? (isTopView(view) ? pieOption(rows, narrow) : barOption(rows)) : null), [rows, view, narrow]);
  if (!rows) return result.isError ? <Empty description={saasMessages.saasNoData} /> : <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} />;
  return (
    <Flex vertical gap={16}>
      <Chart option={option!} label={LABELS[view]} height={isTopView(view) ? (narrow ? 600 : 360) : 320} />
      <Table<AnalysisRow> rowKey="name" size="small" columns={columnsOf(view)} dataSource={rows} pagination={false} scroll={{ x: 'max-content', y: 320 }} />
    </Flex>
  );
}

/** The analysis tab (spec 3 §2, §5): AppLog, AppLogTop, OrigScrLog, OrigScrLogTop over a range of at most the last 180 days. */
export function AnalysisTab({ routerName }: { routerName: string }) {
  const [view, setView] = useState<AnalysisView>('app_log');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultRange('app_log'));
  return (
    <Flex vertical gap={16}>
      <Flex gap={12} wrap align="center">
        <Segmented<AnalysisView>
          value={view}
          options={ANALYSIS_VIEWS.map((v) => ({ value: v, label: LABELS[v] }))}
          onChange={(v) => {
            setView(v);
            setRange(defaultRange(v));
          }}
        />
        <DatePicker.RangePicker
          showTime
          value={range}
          format={DATE_TIME_FORMAT}
          allowClear={false}
          disabledDate={(d) => outOfRange(d)}
          aria-label={LABELS[view]}
          onChange={(v) => {
            if (v?.[0] && v[1]) setRange([v[0], v[1]]);
          }}
        />
      </Flex>
      <ViewResult routerName={routerName} view={view} range={range} />
    </Flex>
  );
}
