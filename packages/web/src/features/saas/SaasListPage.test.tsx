import { fmt, M, type SaasGroup } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import SaasListPage from './SaasListPage';
import { groups } from './testData';

const u = () => userEvent.setup({ delay: null });
const LONG = 60_000;

function api(list: (search?: string) => SaasGroup[] = () => groups) {
  return mockApi({
    '/saas/router': (c) => ok(list(c.query.search)),
    '/saas/bandwidth': ok(null, M.saved),
    '/router/note': ok(null, M.saved),
  });
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('SaasListPage', () => {
  it('shows a divider heading per category, online words and bandwidth 0 as disabled', async () => {
    session.setUser(mainUser);
    api();
    renderWithProviders(<SaasListPage />, { route: '/saas/router' });
    await shows('saas-sh');
    expect(screen.getByText(M.saasListTitle)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'east' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: M.saasUncategorized })).toBeInTheDocument();
    expect(within(rowOf('saas-sh')).getByText(M.saasOnline)).toBeInTheDocument();
    expect(within(rowOf('saas-sh')).getByText('20 Mbs')).toBeInTheDocument();
    expect(within(rowOf('saas-hz')).getByText(M.saasOffline)).toBeInTheDocument();
    expect(within(rowOf('saas-hz')).getByText(M.saasBandwidthDisabled)).toBeInTheDocument();
    expect(within(rowOf('saas-sh')).getByRole('link', { name: M.saasViewDetail })).toHaveAttribute('href', '/saas/detail?router_name=saas-sh');
  }, LONG);

  it('searches with the button and says so when nothing matches', async () => {
    session.setUser(mainUser);
    const m = api((search) => (search ? [] : groups));
    renderWithProviders(<SaasListPage />, { route: '/saas/router' });
    await shows('saas-sh');
    await u().type(screen.getByLabelText(M.saasSearchPlaceholder), 'zzz');
    await u().click(screen.getByRole('button', { name: new RegExp(M.searchLabel.split('').join('\\s*')) }));
    await shows(M.empty);
    expect(m.callsTo('/saas/router').at(-1)!.query).toEqual({ search: 'zzz' });
  }, LONG);

  it('offers bandwidth editing only on shared devices and checks 0 and the maximum before any call', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<SaasListPage />, { route: '/saas/router' });
    await shows('saas-sh');
    expect(within(rowOf('saas-std')).queryByRole('button', { name: M.saasEditBandwidth })).not.toBeInTheDocument();
    await u().click(within(rowOf('saas-sh')).getByRole('button', { name: M.saasEditBandwidth }));
    const input = await screen.findByLabelText(M.saasColBandwidth);
    await u().clear(input);
    await u().type(input, '0');
    await u().click(screen.getByRole('button', { name: /确\s*定/ }));
    await shows(M.saasBandwidthPositive);
    await u().clear(input);
    await u().type(input, '51');
    await u().click(screen.getByRole('button', { name: /确\s*定/ }));
    await shows(fmt(M.saasBandwidthOverMax, { n: 50 }));
    expect(m.callsTo('/saas/bandwidth')).toHaveLength(0);
    await u().clear(input);
    await u().type(input, '50');
    await u().click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(m.callsTo('/saas/bandwidth')).toHaveLength(1));
    expect(m.callsTo('/saas/bandwidth')[0]!.body).toEqual({ router_name: 'saas-sh', bandwidth: 50 });
  }, LONG);

  it('saves a note through /router/note', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<SaasListPage />, { route: '/saas/router' });
    await shows('saas-sh');
    await u().click(within(rowOf('saas-hz')).getByRole('button', { name: M.saasEditNote }));
    await u().type(await screen.findByLabelText(M.memberNoteLabel), '杭州');
    await u().click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(m.callsTo('/router/note')).toHaveLength(1));
    expect(m.callsTo('/router/note')[0]!.body).toEqual({ router_name: 'saas-hz', note: '杭州' });
  }, LONG);

  it('a sub-account without edit rights sees no edit buttons', async () => {
    session.setUser({ ...ramUser, role: { 'easylink.router': { create: 0, edit: 0, delete: 0 }, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } } });
    api();
    renderWithProviders(<SaasListPage />, { route: '/saas/router' });
    await shows('saas-sh');
    expect(screen.queryByRole('button', { name: M.saasEditNote })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.saasEditBandwidth })).not.toBeInTheDocument();
  }, LONG);
});
