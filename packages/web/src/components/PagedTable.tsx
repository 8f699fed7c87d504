import { LIMITS, M } from '@hublink/contract';
import { Empty, Input, Flex, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';

export interface PagedTableProps<T> extends Omit<TableProps<T>, 'pagination' | 'dataSource'> {
  rows: T[] | undefined;
  total: number;
  page: number;
  onPage: (page: number) => void;
  pageSize?: number;
  /** Shows a search box above the table (Enter or the button searches). */
  onSearch?: (text: string) => void;
  searchPlaceholder?: string;
  /** Buttons beside the search box. */
  toolbar?: ReactNode;
  /** The small pager (announcements, spec 1 §2.10). */
  smallPager?: boolean;
}

/**
 * The list pattern of the console: optional search and toolbar, a table, and a pager of 5 buttons that
 * hides itself on a single page; empty lists say '好像没有什么东西哦！'.
 */
export function PagedTable<T extends object>({
  rows,
  total,
  page,
  onPage,
  pageSize = LIMITS.pageSize,
  onSearch,
  searchPlaceholder = '请输入关键字搜索',
  toolbar,
  smallPager,
  ...table
}: PagedTableProps<T>) {
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
              aria-label="搜索"
            />
          ) : (
            <span />
          )}
          <Flex gap={8} wrap>
            {toolbar}
          </Flex>
        </Flex>
      )}
      <Table<T>
        {...table}
        dataSource={rows ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M.empty} /> }}
        pagination={{
          current: page,
          pageSize,
          total,
          onChange: onPage,
          hideOnSinglePage: true,
          showSizeChanger: false,
          showLessItems: true,
          showTotal: (n) => `共 ${n} 条`,
          ...(smallPager ? { size: 'small' as const } : {}),
        }}
      />
    </Flex>
  );
}
