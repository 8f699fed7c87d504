import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ticket } from './fixtures';
import TicketDetailPage from './TicketDetailPage';

const ROUTE = '/network/ticket_detail?network_number=NABC&network_ticket_number=T1';

function setup(answers: Answers) {
  session.setUser(mainUser);
  const m = mockApi(answers);
  const r = renderWithProviders(<TicketDetailPage />, { route: ROUTE });
  return { m, r };
}

describe('TicketDetailPage', () => {
  it('shows the order: type, status, bandwidth in Mbps, region names, validity in years and members by region', async () => {
    const { m } = setup({ '/network/ticket_view': ok(ticket({ network_ticket_number: 'T1' })) });
    await shows('T1');
    expect(m.callsTo('/network/ticket_view')[0]!.query).toEqual({ network_ticket_number: 'T1' });
    expect(screen.getByText(M.ticketTypeAccessPop)).toBeInTheDocument();
    expect(screen.getByText(M.ticketStatusPending)).toBeInTheDocument();
    expect(screen.getByText('50Mbps')).toBeInTheDocument();
    expect(screen.getByText('华南、华东')).toBeInTheDocument();
    expect(screen.getByText('2年')).toBeInTheDocument();
    expect(screen.getByText('华南：r1、r2')).toBeInTheDocument();
    expect(screen.getByText(`华东：${M.ticketDetailNoMembers}`)).toBeInTheDocument();
  });

  it('shows complete_time for a completed order, and offers no delete for it', async () => {
    setup({ '/network/ticket_view': ok(ticket({ network_ticket_number: 'T1', network_ticket_status: 3, complete_time: '2026-11-24 10:00:00' })) });
    await shows('2026-11-24 10:00:00');
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
  });

  it('deletes after 是否确定删除? and goes to the list', async () => {
    const { m, r } = setup({ '/network/ticket_view': ok(ticket({ network_ticket_number: 'T1', network_ticket_status: 4 })), '/network/ticket_delete': ok(null, M.deleted) });
    await userEvent.click(await screen.findByRole('button', { name: /删\s*除/ }));
    await shows(M.confirmDelete);
    expect(m.callsTo('/network/ticket_delete')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(r.location()).toBe('/network/ticket_lists'));
    expect(m.callsTo('/network/ticket_delete')[0]!.body).toEqual({ network_ticket_number: 'T1' });
  });
});
