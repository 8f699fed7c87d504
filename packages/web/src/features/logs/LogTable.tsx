import { DownloadOutlined } from '@ant-design/icons';
import { type connectLog, LIMITS, type LogExportType, logsMessages, type onlineLog, type softwareLoginLog } from '@hublink/contract';
import { Button, DatePicker, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { usePagedList } from '../../api/usePagedList';
import type { Dayjs } from '../../components/dayjs';
import { DAY_FORMAT, defaultLogRange } from '../../components/logRange';
import { PagedTable } from '../../components/PagedTable';
import { exportLog } from './exportLog';
import { useStepBack } from './useStepBack';
import { useListExport } from '../../components/useListExport';

/** The log lists: each takes page, limit, search, start_time and end_time, and answers rows of T. */
type LogEndpoint = typeof softwareLoginLog | typeof onlineLog | typeof connectLog;

export interface LogTableProps<T> {
  endpoint: LogEndpoint;
  /** What the list call takes besides page, limit, search and the days (the online log's mode). */
  extra?: Record<string, string>;
  columns: TableColumnsType<T>;
  exportType: LogExportType;
  searchPlaceholder: string;
}

/**
 * One log of spec 3 §2: quick search, a date range (the last LIMITS.logRangeDays days to today by
 * default), 10 rows a page with the pager of 5 buttons, the empty-page step back, and the Excel export
 * of what the page shows (search and days). An empty list warns '数据为空，请重新筛选数据！' without a call.
 */
export function LogTable<T extends object>({ endpoint, extra, columns, exportType, searchPlaceholder }: LogTableProps<T>) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultLogRange());
  const days = { start_time: range[0].format(DAY_FORMAT), end_time: range[1].format(DAY_FORMAT) };
  const paged = usePagedList(endpoint as typeof connectLog, { limit: LIMITS.pageSize, ...extra, ...days });
  // The endpoint and the columns are given together by the page, so its rows are T.
  const list = { ...paged, rows: paged.rows as readonly T[] | undefined };
  useStepBack(list, LIMITS.pageSize);
  const { exporting, run: exportRows } = useListExport(list, () => exportLog({ type: exportType, ...(list.searchText ? { search: list.searchText } : {}), ...days }));

  const toolbar = (
    <>
      <DatePicker.RangePicker
        value={range}
        format={DAY_FORMAT}
        allowClear={false}
        aria-label={logsMessages.logRange}
        onChange={(v) => {
          if (v?.[0] && v[1]) {
            setRange([v[0], v[1]]);
            list.setPage(1);
          }
        }}
      />
      <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportRows()}>
        {logsMessages.logExport}
      </Button>
    </>
  );

  return (
    <PagedTable<T>
      rowKey={(r) => JSON.stringify(r)}
      columns={columns}
      list={list}
      searchable
      searchPlaceholder={searchPlaceholder}
      toolbar={toolbar}
    />
  );
}
