import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from './providers';

const realMatchMedia = window.matchMedia;

/** The system setting as the browser reports it. */
function prefersReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({ ...realMatchMedia(query), matches: reduce && query === '(prefers-reduced-motion: reduce)' })) as typeof window.matchMedia;
}

function Motion() {
  const { token } = theme.useToken();
  return <span>{token.motion ? 'animated' : 'still'}</span>;
}

describe('reduced motion', () => {
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  it('turns antd’s animations off when the system asks for less motion', () => {
    prefersReducedMotion(true);
    render(
      <Providers>
        <Motion />
      </Providers>,
    );
    expect(screen.getByText('still')).toBeInTheDocument();
  });

  it('keeps them otherwise', () => {
    prefersReducedMotion(false);
    render(
      <Providers>
        <Motion />
      </Providers>,
    );
    expect(screen.getByText('animated')).toBeInTheDocument();
  });
});
