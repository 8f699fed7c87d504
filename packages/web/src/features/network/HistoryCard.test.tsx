import { CODE, fmt, M, type ChangeEffect, type NetworkVersionItem, type VersionDiff } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused, type ApiCall } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { HistoryCard } from './HistoryCard';

/** What version 2's save did: two members reconfigured, one LAN cut off from a point. */
const effect: ChangeEffect = {
  members: [
    { router_name: 'c1', change: 'changed' },
    { router_name: 'p1', change: 'changed' },
  ],
  member_count: 2,
  reach: [{ state: '', from: 'p1', to: { member: 'p2', prefix: '10.4.0.0/24', internet: false, denied: false }, gained: false, path: ['p1', 'c1'], stop: { at: 'c1', why: 'no-route', back: false } }],
  reach_count: 1,
};

const versions: NetworkVersionItem[] = [
  { version: 2, create_time: '2026-11-20 10:00:00', who_kind: 'main', who: '主账号 alice', summary: M.histFieldDns, effect },
  { version: 1, create_time: '2026-11-20 09:00:00', who_kind: 'main', who: '主账号 alice', summary: M.histCreated, effect: null },
];

const diff = (a: number, b: number): VersionDiff => ({
  a,
  b,
  rows: [
    { key: 'network.network_name', label: M.histFieldName, a: '网络', b: '网络', changed: false },
    { key: 'network.dns', label: M.histFieldDns, a: a === 0 ? '8.8.8.8' : '', b: b === 1 ? '' : '8.8.8.8', changed: true },
  ],
  members: { added: [], removed: [], changed: [] },
});

function setup(list = ok(versions, 'success'), canRollback = true) {
  const m = mockApi({
    '/network/history': { ...list, count: list.code === CODE.ok ? versions.length : undefined } as never,
    '/network/history/compare': (c: ApiCall) => ok(diff(Number(c.query.a), Number(c.query.b))),
    '/network/history/rollback': ok({ version: 3 }, fmt(M.histRollbackDone, { n: 1 })),
  });
  renderWithProviders(<HistoryCard networkNumber="NABC" canRollback={canRollback} />);
  return m;
}

const rowOf = (version: number) => screen.getByRole('checkbox', { name: `${M.histColVersion} ${version}` }).closest('tr')!;

describe('HistoryCard', () => {
  it('lists the versions with time, who and summary', async () => {
    setup();
    await shows(M.histCreated);
    expect(within(rowOf(2)).getByText(M.histFieldDns)).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('主账号 alice')).toBeInTheDocument();
  });

  it("opens a saved change's row to what the save did; a version without one has nothing to open", async () => {
    setup();
    await shows(M.histCreated);
    expect(within(rowOf(2)).getByText(fmt(M.effectReachLost, { n: 1 }))).toBeInTheDocument();
    expect(within(rowOf(1)).queryByRole('button', { name: /展开/ })).not.toBeInTheDocument();
    await userEvent.click(within(rowOf(2)).getByRole('button', { name: /展开/ }));
    const shown = await screen.findByRole('region', { name: `${M.effectTitle} ${M.histColVersion} 2` });
    expect(within(shown).getByText(fmt(M.effectMembers, { n: 2 }))).toBeInTheDocument();
    expect(within(shown).getByText(/p1 → p2 10\.4\.0\.0\/24/)).toBeInTheDocument();
    expect(within(shown).getByText(fmt(M.previewStop, { name: 'c1', why: M.previewWhyNoRoute }))).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    setup(ok([], 'success'));
    await shows(M.empty);
  });

  it('shows a load error with a retry', async () => {
    setup(refused('服务器错误', CODE.invalid) as never);
    await shows(M.histLoadFailed);
    expect(screen.getByRole('button', { name: M.histRetry })).toBeInTheDocument();
  });

  it('compares two picked versions side by side, changed rows only by default', async () => {
    const m = setup();
    await shows(M.histCreated);
    const compare = screen.getByRole('button', { name: M.histCompare });
    expect(compare).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: `${M.histColVersion} 1` }));
    await userEvent.click(screen.getByRole('checkbox', { name: `${M.histColVersion} 2` }));
    await userEvent.click(compare);
    await shows(fmt(M.histCompareTitle, { a: 1, b: 2 }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('8.8.8.8')).toBeInTheDocument());
    expect(within(dialog).queryByText(M.histFieldName)).not.toBeInTheDocument();
    expect(m.callsTo('/network/history/compare').at(-1)!.query).toMatchObject({ network_number: 'NABC', a: '1', b: '2' });
    await userEvent.click(within(dialog).getByRole('switch', { name: M.histOnlyChanged }));
    expect(within(dialog).getByText(M.histFieldName)).toBeInTheDocument();
  });

  it('offers no rollback to the current (newest) version, and marks it', async () => {
    setup();
    await shows(M.histCreated);
    expect(within(rowOf(2)).queryByRole('button', { name: M.histRollback })).not.toBeInTheDocument();
    expect(within(rowOf(2)).getByText(M.histCurrentVersion)).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('button', { name: M.histRollback })).toBeInTheDocument();
  });

  it('rolls back after a confirmation that shows what will change', async () => {
    const m = setup();
    await shows(M.histCreated);
    await userEvent.click(within(rowOf(1)).getByRole('button', { name: M.histRollback }));
    await shows(fmt(M.histRollbackConfirm, { n: 1 }));
    expect(m.callsTo('/network/history/compare').at(-1)!.query).toMatchObject({ a: '0', b: '1' });
    expect(m.callsTo('/network/history/rollback')).toHaveLength(0);
    await userEvent.click(screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!);
    await waitFor(() => expect(m.callsTo('/network/history/rollback')).toHaveLength(1));
    expect(m.callsTo('/network/history/rollback')[0]!.body).toEqual({ network_number: 'NABC', version: 1 });
  });

  it('offers no rollback without the edit right', async () => {
    setup(ok(versions, 'success'), false);
    await shows(M.histCreated);
    expect(screen.queryByRole('button', { name: M.histRollback })).not.toBeInTheDocument();
  });
});
