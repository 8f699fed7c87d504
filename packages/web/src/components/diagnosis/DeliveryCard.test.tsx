import { diagnosisMessages, fmt, LIMITS } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DeliveryCard } from './DeliveryCard';

const behind = Array.from({ length: 23 }, (_, i) => ({ router_name: `late${String(i).padStart(2, '0')}`, online: i % 2, config_version: 3, applied_version: 2, applied_error: '' }));

describe('配置下发: the members behind come from the server a page at a time (issue 34)', () => {
  beforeEach(() => {
    session.setToken('tok', 3600);
    session.setUser(mainUser);
  });

  it('polls the count alone and pages the dialog’s list', async () => {
    const m = mockApi({
      '/network/delivery': (call) => {
        const size = Number(call.query.page_size ?? behind.length);
        const page = Number(call.query.behind_page ?? 1);
        return ok({ behind: behind.slice((page - 1) * size, page * size), behind_count: behind.length, last_change: null });
      },
    });
    renderWithProviders(<DeliveryCard networkNumber="N100" />);
    await shows(fmt(diagnosisMessages.deliveryBehindCount, { n: 23 }));
    expect(m.callsTo('/network/delivery')[0]!.query).toEqual({ network_number: 'N100', behind_page: '1', page_size: '1' });

    await userEvent.click(screen.getByRole('button', { name: diagnosisMessages.deliveryBehindView }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('late00')).toBeInTheDocument());
    expect(within(dialog).queryByText('late10')).toBeNull();
    await userEvent.click(within(dialog).getByTitle('3'));
    await waitFor(() => expect(within(dialog).getByText('late20')).toBeInTheDocument());
    expect(m.callsTo('/network/delivery').map((c) => c.query.behind_page)).toContain('3');
    expect(m.callsTo('/network/delivery').at(-1)!.query).toEqual({ network_number: 'N100', behind_page: '3', page_size: String(LIMITS.pageSize) });
  });
});
