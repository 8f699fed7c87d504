import { LIMITS, M, type UserMessage } from '@hublink/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import DashboardPage from './DashboardPage';

const main: UserMessage = {
  nickname: '小林',
  username: 'lin2024',
  ram: 0,
  user_phone: '+86 13800000000',
  user_email: '',
  message_count: 3,
  sign: 'abc123',
  config: { software_auth_source: 0 },
  auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
  role: null,
};
const ram: UserMessage = { ...main, nickname: '小王', username: 'wang@lin2024', ram: 1, user_email: 'wang@example.com' };

const news = [
  { id: 7, title: '春节期间服务安排', tag: '通知', release_time: '2024-02-01 10:00:00' },
  { id: 8, title: '新增华东POP节点', tag: '产品动态', release_time: '2024-02-05 10:00:00' },
];

function setup(user: UserMessage, announcements: typeof news = news) {
  const m = mockApi({ '/account/info': ok(user), '/announcements/lists': ok(announcements) });
  const r = renderWithProviders(<DashboardPage />, { route: '/dashboard' });
  return { m, r };
}

describe('DashboardPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the nickname, phone and an unbound email of a main account, without the sub-account tag', async () => {
    setup(main);
    expect(await screen.findByRole('heading', { name: '小林' })).toBeInTheDocument();
    expect(screen.getByText('lin2024')).toBeInTheDocument();
    expect(screen.getByText('+86 13800000000')).toBeInTheDocument();
    expect(screen.getByText(M.notBound)).toBeInTheDocument();
    expect(screen.queryByText(M.ramTag)).not.toBeInTheDocument();
  });

  it('tags a sub-account', async () => {
    setup(ram);
    expect(await screen.findByRole('heading', { name: '小王' })).toBeInTheDocument();
    expect(screen.getByText(M.ramTag)).toBeInTheDocument();
    expect(screen.getByText('wang@example.com')).toBeInTheDocument();
  });

  it('links the four shortcut tiles', async () => {
    setup(main);
    await screen.findByRole('heading', { name: '小林' });
    expect(screen.getByRole('link', { name: /智能组网/ })).toHaveAttribute('href', '/network/lists');
    expect(screen.getByRole('link', { name: /成员管理/ })).toHaveAttribute('href', '/router/lists');
    expect(screen.getByRole('link', { name: /我的消息/ })).toHaveAttribute('href', '/account/message');
    expect(screen.getByRole('link', { name: /工单服务/ })).toHaveAttribute('href', '/ticket/lists');
  });

  it('rotates the announcements every 5 seconds', async () => {
    // Only the ticker's interval is faked: a clock that also ran on its own would rotate early on a slow machine.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { m } = setup(main);
    const region = await screen.findByRole('region', { name: '公告' });
    expect(within(region).getByRole('link', { name: news[0]!.title })).toHaveAttribute('href', '/account/announcements/detail?id=7');
    expect(m.callsTo('/announcements/lists')[0]!.query).toMatchObject({ page: '1' });

    act(() => vi.advanceTimersByTime(LIMITS.tickerDashboardMs - 100));
    expect(within(region).getByText(news[0]!.title)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(within(region).getByRole('link', { name: news[1]!.title })).toHaveAttribute('href', '/account/announcements/detail?id=8');
    act(() => vi.advanceTimersByTime(LIMITS.tickerDashboardMs));
    expect(within(region).getByText(news[0]!.title)).toBeInTheDocument();
  });

  it('hides the ticker when there is no announcement', async () => {
    const { m } = setup(main, []);
    await screen.findByRole('heading', { name: '小林' });
    await waitFor(() => expect(m.callsTo('/announcements/lists')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: '公告' })).not.toBeInTheDocument();
  });
});
