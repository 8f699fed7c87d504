import { Table, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useRef, type Key } from 'react';
import { usePhone } from './usePhone';

type Column<T> = ColumnsType<T>[number];

/** A state column by its key: status, state, online and their prefixed forms (network_status, online_status). */
const STATE_KEY = /(^|_)(status|state|online)$/;
const ACTION_KEYS = new Set(['actions', 'action', 'operation']);

const keyOf = <T,>(c: Column<T>): string => String(c.key ?? ('dataIndex' in c && typeof c.dataIndex === 'string' ? c.dataIndex : ''));

/**
 * The columns as a phone shows them: `first` (column keys, in order) when given, otherwise the first
 * column (the row's name), its state columns and its actions, then the rest in their own order. No column
 * stays fixed: on a phone a sticky column would cover most of what scrolls beside it.
 */
export function phoneColumns<T>(columns: ColumnsType<T>, first?: readonly Key[]): ColumnsType<T> {
  const unfixed = columns.map((c) => (c.fixed ? { ...c, fixed: undefined } : c));
  const pick = first
    ? (c: Column<T>) => first.map(String).indexOf(keyOf(c))
    : (c: Column<T>, i: number) => {
        if (i === 0) return 0;
        if (STATE_KEY.test(keyOf(c))) return 1;
        if (ACTION_KEYS.has(keyOf(c)) || columns[i]!.fixed === 'right' || columns[i]!.fixed === 'end') return 2;
        return -1;
      };
  const ranked = unfixed.map((c, i) => ({ c, i, rank: pick(c, i) }));
  const lead = ranked.filter((r) => r.rank >= 0).sort((a, b) => a.rank - b.rank || a.i - b.i);
  return [...lead, ...ranked.filter((r) => r.rank < 0)].map((r) => r.c);
}

/**
 * A scroll container the keyboard can reach (WCAG 2.1.1, axe's scrollable-region-focusable): in the
 * tab order while its rows overflow it sideways, so the arrow keys scroll it; out of it otherwise.
 */
export function keepReachable(el: HTMLElement) {
  const scrolls = el.scrollWidth > el.clientWidth;
  if (scrolls && !el.hasAttribute('tabindex')) el.tabIndex = 0;
  else if (!scrolls && el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
}

export interface WideTableProps<T> extends TableProps<T> {
  /** The keys of the columns a phone shows first, in order (default: name, state columns, actions). */
  phoneFirst?: readonly Key[];
}

/**
 * antd's Table as every list of the console lays it out. On a wide screen the cells wrap so that every
 * column fits beside the others (none under a fixed column, none cut off); the table scrolls sideways
 * only when even wrapped it cannot fit. On a phone the rows keep one line each, the columns that matter
 * come first, and the table scrolls sideways with a shade at each edge that has more behind it
 * (antd's scroll-shadow classes, drawn stronger in global.css under .hl-wide-table).
 */
export function WideTable<T extends object>({ phoneFirst, columns, scroll, className, tableLayout, ...table }: WideTableProps<T>) {
  const phone = usePhone();
  const root = useRef<HTMLDivElement | null>(null);
  // After every render (the rows and the layout decide whether it scrolls) and when the table's size changes.
  useEffect(() => {
    const wrapper = root.current;
    if (!wrapper) return;
    const update = () => wrapper.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body').forEach(keepReachable);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(wrapper);
    return () => observer.disconnect();
  });
  return (
    <Table<T>
      {...table}
      ref={(ref: { nativeElement: HTMLDivElement } | null) => {
        root.current = ref?.nativeElement ?? null;
      }}
      className={['hl-wide-table', className].filter(Boolean).join(' ')}
      columns={phone && columns ? phoneColumns(columns, phoneFirst) : columns}
      tableLayout={tableLayout ?? (phone ? undefined : 'auto')}
      scroll={{ ...scroll, x: phone ? 'max-content' : true }}
    />
  );
}
