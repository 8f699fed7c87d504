import { M, type DeviceApprovalItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import DeviceApprovalPage from './DeviceApprovalPage';

const waiting: DeviceApprovalItem = {
  id: 5,
  router_name: 'shop-07',
  router_type: 1,
  ip: '203.0.113.40',
  os: 'openwrt',
  model: 'HL-300',
  brand: 'HubLink',
  state: 'waiting',
  first_time: '2026-11-29 10:00:00',
  last_time: '2026-11-29 10:05:00',
  decided_by: '',
  decided_time: '',
};
const approved: DeviceApprovalItem = { ...waiting, id: 6, router_name: 'alice', router_type: 2, state: 'approved', decided_by: '', decided_time: '2026-11-28 09:00:00' };
const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });

function setup(user = mainUser, enabled: 0 | 1 = 0) {
  session.setUser(user);
  const m = mockApi({
    '/device_approval/setting': (c) => (c.method === 'GET' ? ok({ enabled }) : ok(null, M.deviceApprovalSaved)),
    '/device_approval/lists': (c) => {
      const rows = c.query.state === 'waiting' ? [waiting] : [waiting, approved];
      return { code: 200, msg: 'success', data: rows, count: rows.length };
    },
    '/device_approval/approve': ok(null, M.deviceApproved),
    '/device_approval/refuse': ok(null, M.deviceRefused),
  });
  renderWithProviders(<DeviceApprovalPage />, { route: '/router/device_approval' });
  return m;
}

describe('DeviceApprovalPage', () => {
  it('lists waiting devices with address, OS and model, and approves after the confirmation', async () => {
    const m = setup();
    const tr = (await screen.findByText('shop-07')).closest('tr')!;
    // Wide or phone layout (jsdom has no width): each fact is in the row, in its own cell or on a line of the member's.
    for (const text of ['203.0.113.40', 'openwrt', 'HubLink HL-300', M.deviceApprovalWaiting, '2026-11-29 10:00:00']) expect(within(tr).getAllByText(new RegExp(text)).length).toBeGreaterThan(0);
    await userEvent.click(within(tr).getByRole('button', { name: M.deviceApprovalApprove }));
    await shows(M.deviceApprovalApproveConfirm);
    expect(m.callsTo('/device_approval/approve')).toHaveLength(0);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/device_approval/approve')[0]?.body).toEqual({ id: 5 }));
  });

  it('shows decided devices under their filter, automatic approvals named so', async () => {
    const m = setup();
    await screen.findByText('shop-07');
    await userEvent.click(screen.getByText(M.deviceApprovalFilterAll));
    const tr = (await screen.findByText('alice')).closest('tr')!;
    expect(within(tr).getAllByText(new RegExp(M.deviceApprovalAuto)).length).toBeGreaterThan(0);
    expect(within(tr).queryByRole('button', { name: M.deviceApprovalApprove })).toBeNull();
    expect(within(tr).getByRole('button', { name: M.deviceApprovalRefuse })).toBeInTheDocument();
    expect(m.callsTo('/device_approval/lists').at(-1)?.query).toMatchObject({ state: 'all', page: '1' });
  });

  it('turns approval on only after the confirmation', async () => {
    const m = setup();
    const toggle = await screen.findByRole('switch', { name: M.deviceApprovalSwitch });
    await waitFor(() => expect(toggle).not.toBeDisabled());
    await userEvent.click(toggle);
    await shows(M.deviceApprovalEnableConfirm);
    expect(m.callsTo('/device_approval/setting').filter((c) => c.method === 'POST')).toHaveLength(0);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/device_approval/setting').find((c) => c.method === 'POST')?.body).toEqual({ enabled: 1 }));
  });

  it('a sub-account sees the setting but cannot change it', async () => {
    setup(ramUser, 1);
    const toggle = await screen.findByRole('switch', { name: M.deviceApprovalSwitch });
    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeDisabled();
  });
});
