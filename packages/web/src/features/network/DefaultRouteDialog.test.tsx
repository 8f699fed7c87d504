import { fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DefaultRouteDialog } from './DefaultRouteDialog';
import { member } from '../../test/networkFixtures';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;

function setup(over: Parameters<typeof member>[0] = {}, answer: EnvelopeOf<'/network/default_route'> = ok(null, '设置成功')) {
  const m = mockApi({ '/network/default_route': answer });
  const onClose = vi.fn();
  renderWithProviders(<DefaultRouteDialog networkNumber="N1" member={member({ router_name: 'R7', ...over })} onClose={onClose} />);
  return { m, onClose };
}

describe('DefaultRouteDialog', () => {
  it('asks for the priority only to advertise, and refuses advertising without one', async () => {
    const { m } = setup({ default_route: 0, metric: 0 });
    expect(await screen.findByRole('radio', { name: M.networkRouteOff })).toBeChecked();
    expect(screen.queryByLabelText(M.netSetRoutePriority)).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText(M.networkRouteAdvertise));
    expect(await screen.findByLabelText(M.netSetRoutePriority)).toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.networkRouteMetricInvalid);
    expect(m.callsTo('/network/default_route')).toHaveLength(0);

    await userEvent.click(screen.getByLabelText(M.networkRouteReceive));
    await waitFor(() => expect(screen.queryByLabelText(M.netSetRoutePriority)).not.toBeInTheDocument());
  });

  it('advertises with the metric of the chosen priority', async () => {
    const { m, onClose } = setup({ default_route: 0, metric: 0 });
    await userEvent.click(await screen.findByLabelText(M.networkRouteAdvertise));
    await userEvent.click(await screen.findByLabelText(M.netSetRoutePriority));
    await userEvent.click((await screen.findAllByTitle('优先级4')).at(-1)!);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/default_route')).toHaveLength(1));
    expect(m.callsTo('/network/default_route')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R7', model: 1, metric: 120 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows the server’s refusal of a priority another member advertises with, and stays open', async () => {
    const msg = fmt(M.networkRoutePriorityTaken, { n: 4, name: 'R8' });
    const { m, onClose } = setup({ default_route: 0, metric: 0 }, refused(msg));
    await userEvent.click(await screen.findByLabelText(M.networkRouteAdvertise));
    await userEvent.click(await screen.findByLabelText(M.netSetRoutePriority));
    await userEvent.click((await screen.findAllByTitle('优先级4')).at(-1)!);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/default_route')).toHaveLength(1));
    await shows(msg);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('receives without a metric', async () => {
    const { m } = setup({ default_route: 1, metric: 60 });
    expect(await screen.findByLabelText(M.networkRouteAdvertise)).toBeChecked();
    await userEvent.click(screen.getByLabelText(M.networkRouteReceive));
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/default_route')).toHaveLength(1));
    expect(m.callsTo('/network/default_route')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R7', model: 2 });
  });
});
