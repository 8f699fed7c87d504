import { LIMITS } from '@hublink/contract';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../../test/mockApi';
import { renderWithProviders } from '../../../test/render';
import { NetworkCarousel } from './NetworkCarousel';

// react-slick's timers do not run in jsdom; what the carousel is told is what this proves.
vi.mock('antd', async (original) => ({
  ...(await original<typeof import('antd')>()),
  Carousel: ({ autoplay, autoplaySpeed, children }: { autoplay?: boolean; autoplaySpeed?: number; children: ReactNode }) => (
    <div data-testid="carousel" data-autoplay={String(autoplay)} data-speed={autoplaySpeed}>
      {children}
    </div>
  ),
}));

describe('NetworkCarousel', () => {
  it('turns every 5000 ms, one slide per network', () => {
    mockApi({ '/network/status': ok({ network_status: 1, link: [], link_count: 0, online: {}, device: {} }) });
    const networks = [
      { network_name: '总部', network_number: 'N1', network_member_count: 2 },
      { network_name: 'abcdefgh', network_number: 'N2', network_member_count: 5 },
    ];
    renderWithProviders(<NetworkCarousel routerName="gw" networks={networks} />);
    const carousel = screen.getByTestId('carousel');
    expect(LIMITS.carouselMs).toBe(5000);
    expect(carousel).toHaveAttribute('data-autoplay', 'true');
    expect(carousel).toHaveAttribute('data-speed', '5000');
    expect(screen.getByRole('link', { name: '总部' })).toHaveTextContent('总部');
    expect(screen.getByRole('link', { name: 'abcdefgh' })).toHaveTextContent('abcdef…');
  });
});
