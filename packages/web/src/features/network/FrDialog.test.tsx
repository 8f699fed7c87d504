import { CODE, M, POOL_DIALOG_DELAY_MS } from '@hublink/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ConfigMenu } from './ConfigMenu';
import { detail, member } from '../../test/networkFixtures';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const EMPTY_POOL = { pop: '', center_link_network: '', center_network: '', pop_software: '', other: '' };
const FRS = [
  { network_fr_id: 7, shortname: '华南·华北 100M', expire_day: 300, area_count: 2 },
  { network_fr_id: 8, shortname: '国际 1M', expire_day: 30, area_count: 1 },
];

function setup(answers: Parameters<typeof mockApi>[0] = {}) {
  session.setUser(mainUser);
  const m = mockApi({
    '/network_fr/config': ok(FRS),
    '/network_fr/ov': ok([]),
    '/network/ip_address_pool': ok(EMPTY_POOL),
    '/network/edit_ip_address_pool': ok(null, '保存成功'),
    '/network/preview': ok({ members: [], member_count: 0, reach: [], reach_count: 0, viewer: null }),
    ...answers,
  });
  const d = detail({ member: [member({ router_name: 'C1', member_type: 'center' })], network_fr: { network_fr_id: 7, shortname: '华南·华北 100M' }, mode: 2 });
  renderWithProviders(<ConfigMenu detail={d} canEdit />);
  return m;
}

async function openEntry(label: string) {
  await userEvent.click(screen.getByText(M.networkConfig).closest('button')!);
  await userEvent.click((await screen.findByText(label, { selector: '.ant-dropdown-menu-title-content span' })).closest('li')!);
}

async function pickFr(name: string) {
  await userEvent.click(await screen.findByLabelText(M.popFr));
  const options = await screen.findAllByTitle(name);
  await userEvent.click(options.at(-1)!);
}

describe('FrDialog (POP资源配置) in the config menu', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens with the network’s resource and line mode, and sends the new choice', async () => {
    const m = setup({ '/network/fr': ok(null, '设置成功') });
    await openEntry(M.networkMenuFr);
    await waitFor(() => expect(screen.getByRole('radio', { name: M.networkModeCenter })).toBeChecked());
    await pickFr('国际 1M');
    await userEvent.click(screen.getByRole('radio', { name: M.networkModePop }));
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/fr')).toHaveLength(1));
    expect(m.callsTo('/network/fr')[0]!.body).toEqual({ network_number: 'N1', network_fr_id: 8, mode: 3 });
    await shows('设置成功');
  });

  it('previews a changed resource, not the saved one', async () => {
    const m = setup();
    await openEntry(M.networkMenuFr);
    await waitFor(() => expect(screen.getByRole('radio', { name: M.networkModeCenter })).toBeChecked());
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await pickFr('国际 1M');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/fr', body: { network_fr_id: 8, mode: 2 } });
  });

  it('on 423 warns with the server’s msg, then opens the pool dialog for that resource after 2.5 s and sends the choice again once the pool is saved', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let frCalls = 0;
    const m = setup({
      '/network/fr': () => (++frCalls === 1 ? refused(M.popPoolMissing, CODE.furtherAction) : ok(null, '设置成功')),
    });
    await openEntry(M.networkMenuFr);
    await waitFor(() => expect(screen.getByRole('radio', { name: M.networkModeCenter })).toBeChecked());
    await userEvent.click(okButton());
    await shows(M.popPoolMissing);
    expect(m.callsTo('/network/fr')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(POOL_DIALOG_DELAY_MS));
    await shows(M.popPoolForFr);
    await userEvent.click(okButton());
    await shows(M.popPoolPopRequired);
    expect(m.callsTo('/network/edit_ip_address_pool')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(M.popPoolPop), '10.9.0.0/16');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/fr')).toHaveLength(2));
    expect(m.callsTo('/network/edit_ip_address_pool')[0]!.body).toEqual({ network_number: 'N1', ...EMPTY_POOL, pop: '10.9.0.0/16', fr_id: 7 });
    expect(m.callsTo('/network/fr')[1]!.body).toEqual({ network_number: 'N1', network_fr_id: 7, mode: 2 });
  });

  it('access POP goes to the order wizard of the network', async () => {
    setup();
    await openEntry(M.networkMenuAccessPop);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/network/ticket_create?network_number=N1'));
  });
});
