import { M, type UserMessage } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ticket } from './fixtures';
import TicketListPage from './TicketListPage';

const rows = [
  ticket({ network_ticket_number: 'T1', network_ticket_status: 1 }),
  ticket({ network_ticket_number: 'T2', network_ticket_status: 2, complete_time: '' }),
  ticket({ network_ticket_number: 'T3', network_ticket_status: 3, complete_time: '2026-11-24 10:00:00' }),
  ticket({ network_ticket_number: 'T4', network_ticket_status: 4, network_ticket_type: 2001 }),
];

function setup(extra: Answers = {}, user = mainUser) {
  session.setUser(user);
  const m = mockApi({
    '/network/ticket_lists': { ...ok(rows), count: rows.length },
    '/network/select': ok([{ network_number: 'NABC', network_name: '总部网络' }]),
    ...extra,
  });
  const r = renderWithProviders(<TicketListPage />, { route: '/network/ticket_lists' });
  return { m, r };
}

const row = (number: string) => screen.getByText(number).closest('tr') as HTMLElement;
/** antd spaces out a button's two Chinese characters. */
const spaced = (text: string) => new RegExp(`^${text.split('').join('\\s*')}$`);
const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });

describe('TicketListPage', () => {
  it('shows the title, the types, the statuses, complete_time only for completed orders, and each status’s actions', async () => {
    setup();
    await shows('T1');
    expect(screen.getByText(M.ticketListTitle)).toBeInTheDocument();
    expect(within(row('T1')).getByText(M.ticketTypeAccessPop)).toBeInTheDocument();
    expect(within(row('T4')).getByText(M.ticketTypeOther)).toBeInTheDocument();
    const expected: [string, string, boolean, boolean][] = [
      ['T1', M.ticketStatusPending, true, false],
      ['T2', M.ticketStatusInProgress, false, true],
      ['T3', M.ticketStatusCompleted, false, true],
      ['T4', M.ticketStatusCancelled, true, false],
    ];
    for (const [n, status, del, cancel] of expected) {
      const r = within(row(n));
      expect(r.getByText(status)).toBeInTheDocument();
      expect(r.getByRole('link', { name: M.ticketActionDetail })).toHaveAttribute('href', `/network/ticket_detail?network_number=NABC&network_ticket_number=${n}`);
      expect(r.queryByRole('button', { name: M.ticketActionDelete }) !== null).toBe(del);
      expect(r.queryByRole('button', { name: M.ticketActionCancel }) !== null).toBe(cancel);
    }
    expect(within(row('T3')).getByText('2026-11-24 10:00:00')).toBeInTheDocument();
  });

  it('says so when there are no orders', async () => {
    setup({ '/network/ticket_lists': { ...ok([]), count: 0 } });
    await shows(M.empty);
  });

  it('queries by ticket number and network, and resets', async () => {
    const { m } = setup();
    await shows('T1');
    await userEvent.type(screen.getByLabelText(M.ticketColNumber), 'T2{Enter}');
    await waitFor(() => expect(m.callsTo('/network/ticket_lists').at(-1)!.query).toEqual({ page: '1', search: 'T2' }));
    await userEvent.click(screen.getByLabelText(M.ticketColNetwork));
    await userEvent.click(await screen.findByText('总部网络 (NABC)'));
    await userEvent.click(screen.getByRole('button', { name: spaced(M.ticketSearch) }));
    await waitFor(() => expect(m.callsTo('/network/ticket_lists').at(-1)!.query).toEqual({ page: '1', search: 'T2', network_number: 'NABC' }));
    await userEvent.click(screen.getByRole('button', { name: spaced(M.ticketReset) }));
    await waitFor(() => expect(m.callsTo('/network/ticket_lists').at(-1)!.query).toEqual({ page: '1' }));
  });

  it('filters by the days of creation', async () => {
    const { m } = setup();
    await shows('T1');
    const start = screen.getByPlaceholderText(M.ticketFilterStart);
    await userEvent.click(start);
    await userEvent.type(start, '2026-11-01{Enter}');
    const end = screen.getByPlaceholderText(M.ticketFilterEnd);
    await userEvent.click(end);
    await userEvent.type(end, '2026-11-20{Enter}');
    await userEvent.click(screen.getByRole('button', { name: spaced(M.ticketSearch) }));
    await waitFor(() => expect(m.callsTo('/network/ticket_lists').at(-1)!.query).toEqual({ page: '1', start_time: '2026-11-01', end_time: '2026-11-20' }));
  });

  it('deletes after 是否确定删除? and cancels after 是否取消工单?, with the server’s toasts', async () => {
    const { m } = setup({ '/network/ticket_delete': ok(null, M.deleted), '/network/ticket_cancel': ok(null, M.cancelled) });
    await shows('T1');
    await userEvent.click(within(row('T1')).getByRole('button', { name: M.ticketActionDelete }));
    await shows(M.confirmDelete);
    expect(m.callsTo('/network/ticket_delete')).toHaveLength(0);
    await userEvent.click(okButton());
    await shows(M.deleted);
    expect(m.callsTo('/network/ticket_delete')[0]!.body).toEqual({ network_ticket_number: 'T1' });

    await userEvent.click(within(row('T3')).getByRole('button', { name: M.ticketActionCancel }));
    await shows(M.ticketConfirmCancel);
    expect(m.callsTo('/network/ticket_cancel')).toHaveLength(0);
    await userEvent.click(screen.getAllByRole('button', { name: /确\s*定|OK/ }).at(-1)!);
    await shows(M.cancelled);
    expect(m.callsTo('/network/ticket_cancel')[0]!.body).toEqual({ network_ticket_number: 'T3' });
  });

  it('offers no changes to a sub-account without the edit right', async () => {
    const readOnly: UserMessage = { ...ramUser, role: { 'easylink.router': { create: 0, edit: 0, delete: 0 }, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } } };
    setup({}, readOnly);
    await shows('T1');
    expect(screen.queryByRole('button', { name: M.ticketActionDelete })).toBeNull();
    expect(screen.queryByRole('button', { name: M.ticketActionCancel })).toBeNull();
    expect(screen.queryByRole('button', { name: new RegExp(M.ticketApply) })).toBeNull();
  });

  it('opens the wizard for the network picked in the apply dialog', async () => {
    const { r } = setup();
    await userEvent.click(await screen.findByRole('button', { name: new RegExp(M.ticketApply) }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await shows(M.ticketApplyNetworkRequired);
    await userEvent.click(within(dialog).getByRole('combobox'));
    await userEvent.click((await screen.findAllByText('总部网络 (NABC)')).at(-1)!);
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(r.location()).toBe('/network/ticket_create?network_number=NABC'));
  });
});
