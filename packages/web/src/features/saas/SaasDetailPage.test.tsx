import { LIMITS, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import dayjs from '../../components/dayjs';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DATE_TIME_FORMAT, defaultRange, outOfRange } from '../../components/device/analysisRange';
import SaasDetailPage from './SaasDetailPage';
import { detail } from './testData';

// jsdom draws no canvas: the chart is a labelled box here; what it is given is checked through the calls.
vi.mock('../../components/device/Chart', () => ({ Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

const u = () => userEvent.setup({ delay: null });
const LONG = 60_000;
const rows = [{ name: 'wechat', download_flow_sum: 2048, upload_flow_sum: 100 }];

function api() {
  return mockApi({
    '/saas/info': ok(detail),
    '/saas/traffic': ok([{ time: '2026-11-23 10:00:00', down: 1.5, upload: 0.5 }]),
    '/saas/connect': { code: 200, msg: 'success', data: [{ ip: '172.16.0.2', origin: '10.1.1.1:5000', input: 1024, out: 2048, session_date: '2026-11-23 09:00:00', online_time: 3661, stop_time: '' }], count: 1 },
    '/saas/app_log': ok(rows),
    '/saas/app_log_top': ok(rows),
    '/saas/orig_scr_log': ok([]),
    '/saas/orig_scr_log_top': ok([]),
  });
}

describe('SaasDetailPage', () => {
  it('shows the info, temporary bandwidth, addresses, the traffic chart and dial-in records', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<SaasDetailPage />, { route: '/saas/detail?router_name=saas-sh' });
    await shows('HL-R300');
    expect(m.callsTo('/saas/info')[0]!.query).toEqual({ router_name: 'saas-sh' });
    expect(screen.getByText('80 Mbs')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.8')).toBeInTheDocument();
    expect(screen.getByText(M.saasShare)).toBeInTheDocument();
    await shows('10.1.1.1:5000');
    expect(screen.getByText('1小时1分1秒')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: M.saasTabTraffic })).toBeInTheDocument();
  }, LONG);

  it('analysis: 1 hour for the logs, 6 hours for the top views, an empty view says so', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<SaasDetailPage />, { route: '/saas/detail?router_name=saas-sh' });
    await shows('HL-R300');
    await u().click(screen.getByRole('tab', { name: M.saasTabAnalysis }));
    await waitFor(() => expect(m.callsTo('/saas/app_log')).toHaveLength(1));
    const hoursOf = (q: Record<string, string>) => dayjs(q.end_date, DATE_TIME_FORMAT).diff(dayjs(q.start_date, DATE_TIME_FORMAT), 'hour');
    expect(hoursOf(m.callsTo('/saas/app_log')[0]!.query)).toBe(LIMITS.saasLogDefaultHours);
    await shows('wechat');
    await u().click(screen.getByText(M.saasAppLogTop));
    await waitFor(() => expect(m.callsTo('/saas/app_log_top')).toHaveLength(1));
    expect(hoursOf(m.callsTo('/saas/app_log_top')[0]!.query)).toBe(LIMITS.saasTopDefaultHours);
    await u().click(screen.getByText(M.saasOrigLog));
    await waitFor(() => expect(m.callsTo('/saas/orig_scr_log')).toHaveLength(1));
    await shows(M.empty);
  }, LONG);

  it('without router_name it goes to the list', async () => {
    session.setUser(mainUser);
    api();
    const r = renderWithProviders(<SaasDetailPage />, { route: '/saas/detail', path: '/saas/detail' });
    await waitFor(() => expect(r.location()).toBe('/saas/router'));
  });
});

describe('analysis ranges', () => {
  it('default to 1 h and 6 h and offer days back to 180', () => {
    const now = dayjs('2026-11-23 12:00:00', DATE_TIME_FORMAT);
    expect(defaultRange('orig_scr_log', now)[0].format(DATE_TIME_FORMAT)).toBe('2026-11-23 11:00:00');
    expect(defaultRange('orig_scr_log_top', now)[0].format(DATE_TIME_FORMAT)).toBe('2026-11-23 06:00:00');
    expect(outOfRange(now.subtract(LIMITS.saasAnalysisDays, 'day'), now)).toBe(false);
    expect(outOfRange(now.subtract(LIMITS.saasAnalysisDays + 1, 'day'), now)).toBe(true);
    expect(outOfRange(now.add(1, 'day'), now)).toBe(true);
  });
});
