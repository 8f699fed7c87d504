import { LIMITS, M, type RamItem, type RamLogItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import RamPage from './RamPage';
import { defaultLogRange } from '../../components/logRange';

const rows: RamItem[] = [
  { id: 2, username: 'ops02', nickname: '小王', role_id: 7, role_name: '运维', create_time: '2026-01-02 10:00:00', login_time: '2026-01-03 09:00:00' },
  { id: 1, username: 'ops01', nickname: '小张', role_id: 7, role_name: '运维', create_time: '2026-01-01 10:00:00', login_time: null },
];

const logRows = (page: number): RamLogItem[] =>
  Array.from({ length: page === 1 ? 10 : 2 }, (_, i) => ({
    id: 100 - (page - 1) * 10 - i,
    mode: 'network',
    action: 'create',
    message: `${M.saved}${(page - 1) * 10 + i}`,
    create_time: '2026-01-03 10:00:00',
  }));

function api() {
  return mockApi({
    '/ram/lists': (c) => ({ code: 200, msg: 'success', data: c.query.search ? rows.slice(0, 1) : rows, count: c.query.search ? 1 : 2 }),
    '/ram/quantity': ok({ count: 2, max: 10 }),
    '/ram/domain': ok({ domain: 'acme' }),
    '/ram/delete': ok(null, M.deleted),
    '/ram/log': (c) => ({ code: 200, msg: 'success', data: logRows(Number(c.query.page)), count: 12 }),
  });
}

describe('RamPage', () => {
  it('lists sub-accounts as name@domain with the quota used/total, and searches', async () => {
    const m = api();
    renderWithProviders(<RamPage />, { route: '/ram/index' });
    await shows('ops02@acme');
    await shows(`${M.ramQuota} 2/10`);
    expect(screen.getByText(M.ramNever)).toBeInTheDocument();
    await userEvent.type(screen.getByPlaceholderText(M.ramSearch), '小王{Enter}');
    await waitFor(() => expect(m.callsTo('/ram/lists').at(-1)!.query).toEqual({ page: '1', search: '小王' }));
  });

  it("deletes only after '是否确定删除?' is confirmed", async () => {
    const m = api();
    renderWithProviders(<RamPage />, { route: '/ram/index' });
    const row = (await screen.findByText('ops01@acme')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: M.ramActionDelete }));
    await shows(M.confirmDelete);
    expect(m.callsTo('/ram/delete')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/ram/delete')).toHaveLength(1));
    expect(m.callsTo('/ram/delete')[0]!.body).toEqual({ id: 1 });
    // The list and the quota reload.
    await waitFor(() => expect(m.callsTo('/ram/quantity').length).toBeGreaterThan(1));
  });

  it('opens the operation log for the last days to today, paged', async () => {
    const m = api();
    renderWithProviders(<RamPage />, { route: '/ram/index' });
    const row = (await screen.findByText('ops02@acme')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: M.ramActionLog }));
    await shows(`${M.saved}0`);
    // Areas and calls by name, the API's own words on hover.
    expect(within(screen.getByRole('dialog')).getAllByText(M.logAreaNetwork)[0]).toHaveAttribute('title', 'network');
    expect(within(screen.getByRole('dialog')).getAllByText(M.permCreate)[0]).toHaveAttribute('title', 'create');
    const [start, end] = defaultLogRange();
    expect(end.format('YYYY-MM-DD')).toBe(dayjs().format('YYYY-MM-DD'));
    expect(dayjs().diff(start, 'day')).toBe(LIMITS.logRangeDays);
    expect(m.callsTo('/ram/log')[0]!.query).toEqual({
      page: '1',
      limit: String(LIMITS.pageSize),
      ram_id: '2',
      start_time: start.format('YYYY-MM-DD'),
      end_time: end.format('YYYY-MM-DD'),
    });
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByTitle('2'));
    await shows(`${M.saved}11`);
    expect(m.callsTo('/ram/log').at(-1)!.query.page).toBe('2');
  });
});
