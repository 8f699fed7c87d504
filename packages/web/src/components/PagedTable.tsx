import { BM, fmt, LIMITS } from '@hublink/contract';
import { Empty, Input, Flex, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { WideTable } from './WideTable';

/** What the table needs of a list: the object usePagedList returns fits as it is. */
export interface PagedList<T> {
  rows: readonly T[] | undefined;
  total: number;
  page: number;
  setPage: (page: number) => void;
  loading: boolean;
  /** Searching: used by the search box of a `searchable` table. */
  search?: (text: string) => void;
}

export interface PagedTableProps<T> extends Omit<TableProps<T>, 'pagination' | 'dataSource' | 'loading'> {
  list: PagedList<T>;
  pageSize?: number;
  /** Shows a search box above the table that calls list.search (Enter or the button searches). */
  searchable?: boolean;
  searchPlaceholder?: string;
  /** Buttons beside the search box. */
  toolbar?: ReactNode;
  /** The small pager (announcements, spec 1 §2.10). */
  smallPager?: boolean;
  /** The keys of the columns a phone shows first (default: name, state columns, actions). */
  phoneFirst?: readonly Key[];
}

/**
 * The list pattern of the console: optional search and toolbar, a table, and a pager of 5 buttons that
 * hides itself on a single page; empty lists say '好像没有什么东西哦！'. Laid out by WideTable: columns wrap
 * to fit on a wide screen; on a phone the name, state and actions come first and the table scrolls with a cue.
 */
export function PagedTable<T extends object>({
  list,
  pageSize = LIMITS.pageSize,
  searchable,
  searchPlaceholder = BM.searchPlaceholder,
  toolbar,
  smallPager,
  ...table
}: PagedTableProps<T>) {
  const onSearch = searchable ? list.search : undefined;
  return (
    <Flex vertical gap={16}>
      {(onSearch || toolbar) && (
        <Flex justify="space-between" align="center" gap={12} wrap>
          {onSearch ? (
            <Input.Search
              allowClear
              placeholder={searchPlaceholder}
              maxLength={LIMITS.searchMax}
              onSearch={(v) => onSearch(v.trim())}
              style={{ maxWidth: 320 }}
              aria-label={BM.searchLabel}
            />
          ) : (
            <span />
          )}
          <Flex gap={8} wrap>
            {toolbar}
          </Flex>
        </Flex>
      )}
      <WideTable<T>
        {...table}
        dataSource={list.rows ?? []}
        loading={list.loading}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} /> }}
        pagination={{
          current: list.page,
          pageSize,
          total: list.total,
          onChange: list.setPage,
          hideOnSinglePage: true,
          showSizeChanger: false,
          showLessItems: true,
          showTotal: (n) => fmt(BM.tableTotal, { n }),
          ...(smallPager ? { size: 'small' as const } : {}),
        }}
      />
    </Flex>
  );
}
