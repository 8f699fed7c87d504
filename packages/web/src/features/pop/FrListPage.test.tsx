import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import dayjs from '../../components/dayjs';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import FrListPage from './FrListPage';

const created = dayjs('2026-03-01 12:00:00').unix();
const expires = dayjs('2027-03-01 12:00:00').unix();
const rows = [
  {
    network_fr_id: 2,
    name: '华南·华北 100M',
    create_time: created,
    expire_time: expires,
    expire_day: 98,
    status: 1,
    network: [{ network_name: '总部网络', network_number: 'N1' }],
    area: [
      { name: '华南', bandwidth: 100 },
      { name: '华北', bandwidth: 100 },
    ],
  },
  { network_fr_id: 1, name: '国际 1M', create_time: created, expire_time: created, expire_day: 0, status: 2, network: [], area: [{ name: '国际', bandwidth: 1 }] },
];

function setup(data = rows) {
  session.setUser(mainUser);
  const m = mockApi({ '/network_fr/lists': { code: 200, msg: 'success', data, count: data.length } });
  renderWithProviders(<FrListPage />, { route: '/network/fr_lists' });
  return m;
}

describe('FrListPage (/network/fr_lists)', () => {
  it('shows dates from seconds, days left or expired, and the status as valid or processing', async () => {
    setup();
    await shows('华南·华北 100M');
    const first = screen.getByText('华南·华北 100M').closest('tr')!;
    expect(within(first).getByText('2026-03-01')).toBeInTheDocument();
    expect(within(first).getByText('2027-03-01')).toBeInTheDocument();
    expect(within(first).getByText('98天')).toBeInTheDocument();
    expect(within(first).getByText(M.popStatusValid)).toBeInTheDocument();
    const second = screen.getByText('国际 1M').closest('tr')!;
    expect(within(second).getByText(M.popExpired)).toBeInTheDocument();
    expect(within(second).getByText(M.popStatusProcessing)).toBeInTheDocument();
  });

  it('expands a row to its networks and areas', async () => {
    setup();
    await shows('华南·华北 100M');
    expect(screen.queryByText('总部网络')).not.toBeInTheDocument();
    const first = screen.getByText('华南·华北 100M').closest('tr')!;
    await userEvent.click(within(first).getByRole('button', { name: /展开|expand/i }));
    await shows('总部网络');
    expect(screen.getByText('总部网络').closest('a')).toHaveAttribute('href', '/network/detail?network_number=N1');
    expect(screen.getByText(M.routePopEdit).closest('a')).toHaveAttribute('href', '/network/pop_edit?network_number=N1');
    expect(screen.getAllByText(`${M.popColBandwidth} 100Mbps`)).toHaveLength(2);
  });

  it('postponing only warns 暂时无法延期', async () => {
    const m = setup();
    await shows('华南·华北 100M');
    await userEvent.click(screen.getAllByText(M.popDelay)[0]!.closest('button')!);
    await shows(M.popDelayRefused);
    expect(m.calls.map((c) => c.path)).toEqual(['/network_fr/lists']);
  });

  it('says so when there are none, and searches by name', async () => {
    const m = setup([]);
    await shows(M.empty);
    await userEvent.type(screen.getByRole('searchbox', { name: M.searchLabel }), '华南{Enter}');
    await waitFor(() => expect(m.callsTo('/network_fr/lists').at(-1)!.query).toMatchObject({ search: '华南', page: '1' }));
  });
});
