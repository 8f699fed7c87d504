import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { PageContainer } from './PageContainer';

describe('PageContainer', () => {
  it('takes its title and breadcrumb from the route the router layer gives the page', () => {
    renderWithProviders(<PageContainer>内容</PageContainer>, { route: '/network/detail?network_number=N1', path: '/network/detail' });
    expect(screen.getByRole('heading', { level: 1, name: '网络详情' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation');
    expect(within(crumbs).getByText('智能组网')).toBeInTheDocument();
    expect(within(crumbs).getByRole('link', { name: '网络列表' })).toHaveAttribute('href', '/network/lists');
  });

  it('places a page at the top of the menu under the overview; the overview itself has no breadcrumb', () => {
    const { unmount } = renderWithProviders(<PageContainer>内容</PageContainer>, { route: '/monitor/setting', path: '/monitor/setting' });
    const crumbs = screen.getByRole('navigation');
    expect(within(crumbs).getByRole('link', { name: '概览' })).toHaveAttribute('href', '/dashboard');
    expect(within(crumbs).getByText('监控告警策略')).toBeInTheDocument();
    unmount();
    renderWithProviders(<PageContainer>内容</PageContainer>, { route: '/dashboard', path: '/dashboard' });
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows its own title and no breadcrumb outside the route table', () => {
    renderWithProviders(<PageContainer title="自定义">内容</PageContainer>, { route: '/elsewhere' });
    expect(screen.getByRole('heading', { level: 1, name: '自定义' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
