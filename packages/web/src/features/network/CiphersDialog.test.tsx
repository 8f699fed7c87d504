import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { CiphersDialog } from './CiphersDialog';
import { detail } from '../../test/networkFixtures';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;

describe('CiphersDialog', () => {
  it('opens with the current ciphers and sends the national standard', async () => {
    const m = mockApi({ '/network/ciphers': ok(null, '修改成功') });
    const onClose = vi.fn();
    renderWithProviders(<CiphersDialog detail={detail()} open onClose={onClose} />);
    expect(await screen.findByLabelText(M.networkCiphersDefault)).toBeChecked();
    await userEvent.click(screen.getByLabelText(M.netSetCiphersSm));
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/ciphers')).toHaveLength(1));
    expect(m.callsTo('/network/ciphers')[0]!.body).toEqual({ network_number: 'N1', ncp_ciphers: 'sm' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
