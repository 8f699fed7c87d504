import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { QuaggaAllButtons } from './QuaggaAllButtons';

describe('QuaggaAllButtons', () => {
  it('previews enabling every member’s dynamic routing in its confirmation, once it opens', async () => {
    const m = mockApi({ '/network/preview': ok({ members: [], member_count: 0, reach: [], reach_count: 0, viewer: null }) });
    renderWithProviders(<QuaggaAllButtons networkNumber="N1" />);
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await userEvent.click(screen.getByText(M.netSetQuaggaAllOn).closest('button')!);
    await shows(M.netSetQuaggaAllOnConfirm);
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/quagga_enable', body: {} });
    await shows(M.previewNothing);
  });
});
