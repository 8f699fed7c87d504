import { M } from '@hublink/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifyManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { wizardConfig } from './fixtures';
import TicketCreatePage from './TicketCreatePage';

const ROUTE = '/network/ticket_create?network_number=NABC';
const spaced = (text: string) => new RegExp(`^${text.split('').join('\\s*')}$`);
const button = (text: string) => screen.getByRole('button', { name: spaced(text) });

function setup(extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({
    '/network/ticket_config': ok(wizardConfig()),
    '/network/ticket': ok({ network_ticket_number: 'T9' }, M.ticketSubmitted),
    ...extra,
  });
  const r = renderWithProviders(<TicketCreatePage />, { route: ROUTE });
  return { m, r };
}

const region = (name: string) => screen.getByRole('checkbox', { name });

/** Moves members into the open tab's region: check them in the pool, then the move-right button. */
async function moveIn(names: string[]) {
  const panel = screen.getByRole('tabpanel');
  for (const n of names) await userEvent.click(within(panel).getByText(n));
  const [right] = within(panel).getAllByRole('button');
  await userEvent.click(right!);
}

/**
 * Waits for a condition without Testing Library's waitFor, which drains its wrapper through
 * setTimeout and so stalls while setTimeout is faked: a condition, never a duration.
 */
async function until(cond: () => boolean) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((res) => setImmediate(res));
  expect(cond()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
  notifyManager.setScheduler((cb) => setTimeout(cb, 0));
});

describe('TicketCreatePage', () => {
  it('keeps at least one region: unchecking the last warns and keeps it checked', async () => {
    const { m } = setup();
    await waitFor(() => expect(region('华南')).toBeChecked());
    expect(m.callsTo('/network/ticket_config')[0]!.query).toEqual({ type: '1001', network_number: 'NABC' });
    await userEvent.click(region('华南'));
    await shows(M.ticketPopRequired);
    expect(region('华南')).toBeChecked();
    await userEvent.click(region('华东'));
    await userEvent.click(region('华南'));
    expect(region('华南')).not.toBeChecked();
    expect(region('华东')).toBeChecked();
  });

  it('offers the validity in years and the bandwidth slider from the server’s bounds with the 1–200 Mbps marks', async () => {
    setup();
    await waitFor(() => expect(screen.getByRole('radio', { name: '1年' })).toBeChecked());
    for (const y of ['2年', '3年']) expect(screen.getByRole('radio', { name: y })).toBeInTheDocument();
    const slider = screen.getByRole('slider');
    expect(slider).toHaveAttribute('aria-valuemin', '1');
    expect(slider).toHaveAttribute('aria-valuemax', '200');
    for (const mark of ['1', '50', '100', '150', '200']) expect(screen.getByText(mark, { selector: '.ant-slider-mark-text' })).toBeInTheDocument();
    expect(screen.getByText(`${M.ticketDetailBandwidth} 1Mbps`)).toBeInTheDocument();
  });

  it('says 暂不可购买 when the server offers no region or no validity', async () => {
    setup({ '/network/ticket_config': ok(wizardConfig({ pop: [] })) });
    await shows(M.ticketNotBuyable);
    expect(screen.queryByRole('button', { name: spaced(M.ticketNext) })).toBeNull();
  });

  it('assigns members per region with the used count, returns them to the pool on previous, submits bandwidth 1 and goes back after 0.5 s', async () => {
    const { m, r } = setup();
    await waitFor(() => expect(region('华南')).toBeChecked());
    await userEvent.click(region('华东'));
    await userEvent.click(screen.getByRole('radio', { name: '2年' }));
    await userEvent.click(button(M.ticketNext));

    await shows('已分配 0/3');
    await moveIn(['r1', 'r2']);
    await shows('已分配 2/3');
    await userEvent.click(screen.getByRole('tab', { name: '华东' }));
    const east = screen.getByRole('tabpanel');
    expect(within(east).queryByText('r1')).toBeNull();
    await moveIn(['r3']);
    await shows('已分配 3/3');
    await userEvent.click(button(M.ticketNext));

    expect(screen.getByText('r1、r2')).toBeInTheDocument();
    expect(screen.getByText('1Mbps')).toBeInTheDocument();
    await userEvent.click(button(M.ticketPrev));
    await shows('已分配 0/3');
    await moveIn(['r2']);
    await userEvent.click(button(M.ticketNext));

    // TanStack Query batches its notifications on setTimeout(0); with setTimeout faked they run as microtasks.
    notifyManager.setScheduler(queueMicrotask);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(button(M.ticketSubmit));
    await until(() => document.body.textContent!.includes(M.ticketSubmitted) && !button(M.ticketSubmit).classList.contains('ant-btn-loading'));
    expect(m.callsTo('/network/ticket')[0]!.body).toEqual({
      network_number: 'NABC',
      network_ticket_type: 1001,
      ticket: { pop: ['south', 'east'], expired_time: 2, bandwidth: 1 },
      pop_conf: { south: [], east: ['r2'] },
    });
    act(() => vi.advanceTimersByTime(499));
    expect(r.location()).toBe(ROUTE);
    act(() => vi.advanceTimersByTime(1));
    expect(r.location()).toBe('/network/ticket_lists');
  });

  it('stays on a refusal, showing the server’s message', async () => {
    const { r } = setup({ '/network/ticket': { code: 422, msg: M.ticketPendingExists } });
    await waitFor(() => expect(region('华南')).toBeChecked());
    await userEvent.click(button(M.ticketNext));
    await userEvent.click(button(M.ticketNext));
    await userEvent.click(button(M.ticketSubmit));
    await shows(M.ticketPendingExists);
    expect(r.location()).toBe(ROUTE);
  });
});
