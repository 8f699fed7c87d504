import { M } from '@hublink/contract';
import { screen } from '@testing-library/react';
import { List, Table } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';

describe('empty tables and lists', () => {
  it("say the spec's one text, not antd's 暂无数据", () => {
    renderWithProviders(
      <>
        <Table rowKey="id" columns={[{ title: '名称', dataIndex: 'name', key: 'name' }]} dataSource={[]} />
        <List dataSource={[]} renderItem={() => null} />
      </>,
    );
    expect(screen.getAllByText(M.empty)).toHaveLength(2);
    // antd's empty picture keeps its locale's <title>; what the page shows is checked here.
    expect(screen.queryByText('暂无数据', { ignore: 'script, style, title' })).toBeNull();
  });
});
