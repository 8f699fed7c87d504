import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser, otherBrand, ownBrand } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ticketItem } from './fixtures';
import TicketListPage from './TicketListPage';

const rows = [
  ticketItem({ ticket_number: 'T20260105000001', ticket_title: '无法连接总部', ticket_status: 1 }),
  ticketItem({ ticket_number: 'T20260105000002', ticket_title: '账号问题', ticket_status: 2, deletable: false }),
  ticketItem({ ticket_number: 'T20260105000003', ticket_title: '已经解决', ticket_status: 3 }),
];

function setup(extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({ '/ticket/lists': { ...ok(rows), count: rows.length }, '/site/info': ok({ brand: ownBrand }), '/ticket/delete': ok(null, M.deleted), ...extra });
  const r = renderWithProviders(<TicketListPage />, { route: '/ticket/lists' });
  return { m, r };
}

const row = (number: string) => screen.getByText(number).closest('tr') as HTMLElement;

describe('TicketListPage', () => {
  it('is 客服工单 with the intro, the working hours and the brand on the product’s own host', async () => {
    setup();
    expect(screen.getByRole('heading', { name: '客服工单' })).toBeInTheDocument();
    await shows('提交工单后，云联客服顾问将在工单内回复您。工作时间：周一至周五 9:00-18:00，非工作时间提交的工单将在下一个工作日处理。');
  });

  it('leaves the brand out on another host', async () => {
    setup({ '/site/info': ok({ brand: otherBrand }) });
    await shows(/^提交工单后，客服顾问将在工单内回复您。工作时间：周一至周五 9:00-18:00/);
    expect(screen.queryByText(/合作伙伴/)).toBeNull();
  });

  it('lists number, title, status and time with view for each and delete where the caller may', async () => {
    setup();
    await shows('T20260105000001');
    for (const [number, status, deletable] of [
      ['T20260105000001', '待处理', true],
      ['T20260105000002', '已回复', false],
      ['T20260105000003', '已关闭', true],
    ] as const) {
      const r = within(row(number));
      expect(r.getByText(status)).toBeInTheDocument();
      expect(r.getByText('2026-01-05 09:30:00')).toBeInTheDocument();
      expect(r.getByRole('link', { name: '查看' })).toHaveAttribute('href', `/ticket/detail?ticket_number=${number}`);
      expect(r.queryByRole('button', { name: '删除' }) !== null).toBe(deletable);
    }
    expect(within(row('T20260105000001')).getByText('无法连接总部')).toBeInTheDocument();
  });

  it('deletes after 是否确定删除? and reloads the list', async () => {
    const { m } = setup();
    await shows('T20260105000003');
    await userEvent.click(within(row('T20260105000003')).getByRole('button', { name: '删除' }));
    await shows('是否确定删除?');
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/ticket/delete')).toEqual([expect.objectContaining({ body: { ticket_number: 'T20260105000003' } })]));
    await waitFor(() => expect(m.callsTo('/ticket/lists').length).toBeGreaterThan(1));
    await shows(M.deleted);
  });

  it('searches from page 1, and steps back a page when a later one comes back empty', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ticketItem({ ticket_number: `T2026010500001${i}` }));
    const { m } = setup({
      '/ticket/lists': (call) => (call.query.page === '2' ? { ...ok([]), count: 10 } : { ...ok(call.query.search ? [rows[0]!] : many), count: call.query.search ? 1 : 11 }),
    });
    await shows('T20260105000010');
    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(m.callsTo('/ticket/lists').map((c) => c.query.page)).toEqual(['1', '2', '1']));
    await userEvent.type(screen.getByPlaceholderText('请输入工单编号或标题搜索'), '总部{Enter}');
    await waitFor(() => expect(m.callsTo('/ticket/lists').at(-1)!.query).toEqual({ page: '1', search: '总部' }));
    await shows('无法连接总部');
  });

  it('says so when there is no ticket, and opens the create page', async () => {
    const { r } = setup({ '/ticket/lists': { ...ok([]), count: 0 } });
    await shows(M.empty);
    await userEvent.click(screen.getByRole('button', { name: /提交工单/ }));
    expect(r.location()).toBe('/ticket/create');
  });
});
