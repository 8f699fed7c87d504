import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DnsDialog } from './DnsDialog';
import { detail } from '../../test/networkFixtures';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const row = (n: number) => screen.getByLabelText(`${M.netSetDnsRow} ${n}`);

function setup(dns: string[] = ['8.8.8.8'], dnsQuantity = 2) {
  const m = mockApi({ '/network/dns': ok(null, '保存成功') });
  const onClose = vi.fn();
  renderWithProviders(<DnsDialog detail={detail({ network_dns: dns, network_config: { ...detail().network_config, dns_quantity: dnsQuantity } })} open onClose={onClose} />);
  return { m, onClose };
}

describe('DnsDialog', () => {
  it('closes without a call when the list is unchanged', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByDisplayValue('8.8.8.8')).toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/network/dns')).toHaveLength(0);
  });

  it('refuses an empty, an invalid and a repeated row with the spec messages before any call', async () => {
    const { m, onClose } = setup();
    await screen.findByDisplayValue('8.8.8.8');
    await userEvent.click(screen.getByText(M.netSetDnsAdd));
    await userEvent.click(okButton());
    await shows(M.networkDnsRequired);

    await userEvent.type(row(2), '010.1.1.1');
    await shows(M.networkDnsInvalid);

    await userEvent.clear(row(2));
    await userEvent.type(row(2), '8.8.8.8');
    await userEvent.click(okButton());
    await shows(M.networkDnsRepeat);
    expect(m.callsTo('/network/dns')).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('offers at most dns_quantity rows', async () => {
    setup(['8.8.8.8', '1.1.1.1']);
    await screen.findByDisplayValue('1.1.1.1');
    await userEvent.click(screen.getByText(M.netSetDnsAdd));
    await shows('DNS仅支持 2 个');
    expect(screen.queryByLabelText(`${M.netSetDnsRow} 3`)).not.toBeInTheDocument();
  });

  it('sends the whole list, trimmed, and closes', async () => {
    const { m, onClose } = setup();
    await screen.findByDisplayValue('8.8.8.8');
    await userEvent.click(screen.getByText(M.netSetDnsAdd));
    await userEvent.type(row(2), ' 114.114.114.114 ');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/dns')).toHaveLength(1));
    expect(m.callsTo('/network/dns')[0]!.body).toEqual({ network_number: 'N1', dns: ['8.8.8.8', '114.114.114.114'] });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('clears the list when every row is removed', async () => {
    const { m } = setup();
    await screen.findByDisplayValue('8.8.8.8');
    await userEvent.click(screen.getByLabelText(`${M.netSetDnsRemove} ${M.netSetDnsRow} 1`));
    await shows(M.netSetDnsEmpty);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/dns')).toHaveLength(1));
    expect(m.callsTo('/network/dns')[0]!.body).toEqual({ network_number: 'N1', dns: [] });
  });
});
