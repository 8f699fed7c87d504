import { fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { IpPoolDialog } from './IpPoolDialog';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const SAVED = { pop: '10.9.0.0/16', center_link_network: '', center_network: '10.10.0.0/24', pop_software: '', other: '' };

function setup(hasFr = false, answer: EnvelopeOf<'/network/edit_ip_address_pool'> = ok(null, '保存成功')) {
  const m = mockApi({
    '/network/ip_address_pool': ok(SAVED),
    '/network/edit_ip_address_pool': answer,
    '/network/preview': ok({ members: [], member_count: 0, reach: [], reach_count: 0, viewer: null }),
  });
  const onClose = vi.fn();
  renderWithProviders(<IpPoolDialog networkNumber="N1" hasFr={hasFr} pending={null} open onClose={onClose} />);
  return { m, onClose };
}

const field = (label: string) => screen.getByLabelText(label);

describe('IpPoolDialog (网段配置)', () => {
  it('opens with the saved pools and refuses a bad segment, a mask outside 16–24, a host address and overlapping pools before any call', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByDisplayValue('10.9.0.0/16')).toBeInTheDocument();
    await userEvent.type(field(M.popPoolOther), '10.300.0.0/24');
    await userEvent.click(okButton());
    await shows(M.popPoolInvalid);

    await userEvent.clear(field(M.popPoolOther));
    await userEvent.type(field(M.popPoolOther), '10.20.0.0/8');
    await userEvent.click(okButton());
    await shows(M.popPoolMaskRange);

    await userEvent.clear(field(M.popPoolOther));
    await userEvent.type(field(M.popPoolOther), '10.20.1.0/16');
    await userEvent.click(okButton());
    await shows(M.popPoolNotNetwork);

    await userEvent.clear(field(M.popPoolOther));
    await userEvent.type(field(M.popPoolOther), '10.9.4.0/24');
    await userEvent.click(okButton());
    await shows(fmt(M.popPoolOverlap, { a: M.popPoolPop, b: M.popPoolOther }));
    expect(m.callsTo('/network/edit_ip_address_pool')).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of a pool over a route prefix and stays open', async () => {
    const msg = fmt(M.popPoolOverlap, { a: M.popPoolOther, b: fmt(M.popPoolPrefix, { prefix: '10.30.0.0/16' }) });
    const { m, onClose } = setup(false, refused(msg));
    await screen.findByDisplayValue('10.9.0.0/16');
    await userEvent.type(field(M.popPoolOther), '10.30.0.0/24');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_ip_address_pool')).toHaveLength(1));
    await shows(msg);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends every pool, trimmed, and closes', async () => {
    const { m, onClose } = setup();
    await screen.findByDisplayValue('10.9.0.0/16');
    await userEvent.type(field(M.popPoolOther), ' 10.30.0.0/24 ');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_ip_address_pool')).toHaveLength(1));
    expect(m.callsTo('/network/edit_ip_address_pool')[0]!.body).toEqual({ network_number: 'N1', ...SAVED, other: '10.30.0.0/24' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('previews the pools it would save, trimmed, not the saved ones', async () => {
    const { m } = setup();
    await screen.findByDisplayValue('10.9.0.0/16');
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await userEvent.type(field(M.popPoolOther), ' 10.30.0.0/24 ');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/edit_ip_address_pool', body: { ...SAVED, other: '10.30.0.0/24' } });
  });

  it('requires the POP pool while the network has a POP resource', async () => {
    const { m } = setup(true);
    await screen.findByDisplayValue('10.9.0.0/16');
    await userEvent.clear(field(M.popPoolPop));
    await userEvent.click(okButton());
    await shows(M.popPoolPopRequired);
    expect(m.callsTo('/network/edit_ip_address_pool')).toHaveLength(0);
  });
});
