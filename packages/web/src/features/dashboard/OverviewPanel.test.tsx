import { LIMITS, M, type Overview } from '@hublink/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { OverviewPanel } from './OverviewPanel';

const figures: Overview = {
  networks: 3,
  members: { hardware: 12, software: 40 },
  online: { hardware: 9, software: 17 },
  behind: { hardware: 2, software: 5 },
  offline_day: { hardware: 0, software: 4 },
  alerts: 6,
  quota: { members: { used: 52, max: 60 }, networked: { used: 30, max: 60 }, centers: 2, ram: { used: 1, max: 10 } },
};

const zero: Overview = {
  networks: 0,
  members: { hardware: 0, software: 0 },
  online: { hardware: 0, software: 0 },
  behind: { hardware: 0, software: 0 },
  offline_day: { hardware: 0, software: 0 },
  alerts: 0,
  quota: { members: { used: 0, max: 10 }, networked: { used: 0, max: 10 }, centers: 2, ram: null },
};

const RED = 'rgb(245, 34, 45)';

const link = (name: string) => within(screen.getByRole('region', { name: M.overviewTitle })).getByRole('link', { name });

describe('OverviewPanel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows each figure as a link to the filtered list behind it', async () => {
    mockApi({ '/dashboard/overview': ok(figures) });
    renderWithProviders(<OverviewPanel />, { route: '/dashboard' });
    await screen.findByRole('link', { name: `${M.overviewNetworks} 3` });
    expect(link(`${M.overviewNetworks} 3`)).toHaveAttribute('href', '/network/lists');
    expect(link(`${M.overviewHardware} 9`)).toHaveAttribute('href', '/router/lists?type=1&state=online');
    expect(link(`${M.overviewHardware} 共 12 台`)).toHaveAttribute('href', '/router/lists?type=1');
    expect(link(`${M.overviewSoftware} 17`)).toHaveAttribute('href', '/router/lists?type=2&state=online');
    expect(link(`${M.overviewSoftware} 共 40 台`)).toHaveAttribute('href', '/router/lists?type=2');
    expect(link(`${M.overviewBehind} 7`)).toHaveAttribute('href', '/router/lists?type=1&state=behind');
    expect(link(`${M.overviewBehind} 硬件 2`)).toHaveAttribute('href', '/router/lists?type=1&state=behind');
    expect(link(`${M.overviewBehind} 软件 5`)).toHaveAttribute('href', '/router/lists?type=2&state=behind');
    // Only software members are offline that long: the total opens their tab.
    expect(link(`${M.overviewOfflineDay} 4`)).toHaveAttribute('href', '/router/lists?type=2&state=offline_day');
    expect(link(`${M.overviewOfflineDay} 软件 4`)).toHaveAttribute('href', '/router/lists?type=2&state=offline_day');
    expect(link(`${M.overviewAlerts} 6`)).toHaveAttribute('href', '/account/message?type=alert');
    // Alerts are drawn in red when there are some.
    expect(link(`${M.overviewAlerts} 6`).style.color).toBe(RED);
    expect(link(`${M.overviewQuotaMembers} 52/60`)).toHaveAttribute('href', '/router/lists');
    expect(link(`${M.overviewQuotaNetworked} 30/60`)).toHaveAttribute('href', '/network/lists');
    expect(link(`${M.overviewQuotaRam} 1/10`)).toHaveAttribute('href', '/ram/index');
    expect(screen.getByText(M.overviewQuotaCenters)).toBeInTheDocument();
  });

  it('says so when there is nothing to count, and shows a sub-account no sub-account quota', async () => {
    mockApi({ '/dashboard/overview': ok(zero) });
    renderWithProviders(<OverviewPanel />, { route: '/dashboard' });
    expect(await screen.findByText(M.overviewNoNetworks)).toBeInTheDocument();
    expect(screen.getAllByText(M.overviewNoMembers)).toHaveLength(2);
    expect(screen.getByText(M.overviewAllCurrent)).toBeInTheDocument();
    expect(screen.getByText(M.overviewNoneOffline)).toBeInTheDocument();
    expect(screen.getByText(M.overviewNoAlerts)).toBeInTheDocument();
    // No alert is the ordinary state: not red.
    expect(link(`${M.overviewAlerts} 0`).style.color).not.toBe(RED);
    expect(screen.queryByText(M.overviewQuotaRam)).not.toBeInTheDocument();
  });

  it('shows a skeleton while loading, and an error with a retry when the first load fails', async () => {
    let fail = true;
    const m = mockApi({ '/dashboard/overview': () => (fail ? refused(M.overviewLoadFailed, 500) : ok(figures)) });
    renderWithProviders(<OverviewPanel />, { route: '/dashboard' });
    const region = screen.getByRole('region', { name: M.overviewTitle });
    expect(region.querySelector('.ant-skeleton')).not.toBeNull();
    expect(await within(region).findByText(M.overviewLoadFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.setup({ delay: null }).click(within(region).getByRole('button', { name: M.overviewRetry }));
    expect(await within(region).findByRole('link', { name: `${M.overviewNetworks} 3` })).toBeInTheDocument();
    expect(m.callsTo('/dashboard/overview')).toHaveLength(2);
  });

  it('refreshes at the console polling interval while it is shown', async () => {
    // Only the poll's interval is faked, as the ticker's test does.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let n = 0;
    const m = mockApi({ '/dashboard/overview': () => ok({ ...figures, alerts: ++n }) });
    const r = renderWithProviders(<OverviewPanel />, { route: '/dashboard' });
    await screen.findByRole('link', { name: `${M.overviewAlerts} 1` });
    act(() => vi.advanceTimersByTime(LIMITS.statusPollMs - 100));
    expect(m.callsTo('/dashboard/overview')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(100));
    expect(await screen.findByRole('link', { name: `${M.overviewAlerts} 2` })).toBeInTheDocument();
    r.unmount();
    act(() => vi.advanceTimersByTime(LIMITS.statusPollMs * 2));
    await waitFor(() => expect(m.callsTo('/dashboard/overview')).toHaveLength(2));
  });
});
