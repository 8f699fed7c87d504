import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { keepReachable, phoneColumns, WideTable } from './WideTable';

interface Row {
  name: string;
  note: string;
  online_status: number;
  version: string;
}

const columns = [
  { title: '名称', dataIndex: 'name', key: 'name' },
  { title: '备注', dataIndex: 'note', key: 'note' },
  { title: '版本', dataIndex: 'version', key: 'version' },
  { title: '登录状态', dataIndex: 'online_status', key: 'online_status' },
  { title: '操作', key: 'actions', fixed: 'right' as const, render: () => '删除' },
];

const titles = (cols: readonly { title?: unknown }[]) => cols.map((c) => c.title);

describe('phoneColumns', () => {
  it('puts the name, the state columns and the actions first, and fixes none', () => {
    const cols = phoneColumns<Row>(columns);
    expect(titles(cols)).toEqual(['名称', '登录状态', '操作', '备注', '版本']);
    expect(cols.some((c) => c.fixed)).toBe(false);
  });

  it('follows the keys a list names instead', () => {
    expect(titles(phoneColumns<Row>(columns, ['name', 'version', 'actions']))).toEqual(['名称', '版本', '操作', '备注', '登录状态']);
  });

  it('finds the actions by their key when the column is not fixed', () => {
    const cols = [{ title: '时间', key: 'create_time' }, { title: '说明', key: 'text' }, { title: '操作', key: 'action' }, { title: '状态', key: 'network_status' }];
    expect(titles(phoneColumns(cols))).toEqual(['时间', '状态', '操作', '说明']);
  });
});

describe('WideTable', () => {
  const wide = window.matchMedia;
  const rows: Row[] = [{ name: 'gw01', note: '机房', online_status: 1, version: '1.0' }];
  const heads = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

  afterEach(() => {
    window.matchMedia = wide;
  });

  it('keeps the columns in their order on a wide screen', () => {
    renderWithProviders(<WideTable<Row> rowKey="name" columns={columns} dataSource={rows} pagination={false} />);
    expect(heads()).toEqual(['名称', '备注', '版本', '登录状态', '操作']);
  });

  describe('on a phone', () => {
    beforeEach(() => {
      window.matchMedia = (query: string) => ({ ...wide(query), matches: /max-width: 767px/.test(query) });
    });

    it('shows the name, the state and the actions first', () => {
      renderWithProviders(<WideTable<Row> rowKey="name" columns={columns} dataSource={rows} pagination={false} />);
      expect(heads()).toEqual(['名称', '登录状态', '操作', '备注', '版本']);
    });
  });
});

describe('keepReachable', () => {
  const box = (scrollWidth: number, clientWidth: number) => {
    const el = document.createElement('div');
    Object.defineProperty(el, 'scrollWidth', { configurable: true, value: scrollWidth });
    Object.defineProperty(el, 'clientWidth', { configurable: true, value: clientWidth });
    return el;
  };

  it('puts a table that scrolls sideways in the tab order, and takes it out once it fits', () => {
    const el = box(800, 390);
    keepReachable(el);
    expect(el.getAttribute('tabindex')).toBe('0');
    Object.defineProperty(el, 'scrollWidth', { value: 390 });
    keepReachable(el);
    expect(el.hasAttribute('tabindex')).toBe(false);
  });

  it('leaves a table that fits out of it, and a tabindex it did not set alone', () => {
    const fits = box(390, 390);
    keepReachable(fits);
    expect(fits.hasAttribute('tabindex')).toBe(false);
    const own = box(390, 390);
    own.setAttribute('tabindex', '-1');
    keepReachable(own);
    expect(own.getAttribute('tabindex')).toBe('-1');
  });

  it('is applied to the scroll container of a rendered table', () => {
    const scroll = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollWidth')!;
    Object.defineProperty(Element.prototype, 'scrollWidth', { configurable: true, get: () => 800 });
    try {
      const { container } = renderWithProviders(<WideTable<Row> rowKey="name" columns={columns} dataSource={[{ name: 'gw01', note: '', online_status: 1, version: '' }]} pagination={false} />);
      expect(container.querySelector('.ant-table-content')?.getAttribute('tabindex')).toBe('0');
    } finally {
      Object.defineProperty(Element.prototype, 'scrollWidth', scroll);
    }
  });
});
