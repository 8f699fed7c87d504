import { act, render, screen } from '@testing-library/react';
import { Suspense, useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazy } from './lazyPage';

/** A page that counts its mounts, loaded when `resolve` is called. */
function deferredPage() {
  const mounts = { count: 0 };
  function Page({ label }: { label: string }) {
    useEffect(() => {
      mounts.count += 1;
    }, []);
    return <p>{label}</p>;
  }
  let resolve!: () => void;
  const load = vi.fn(() => new Promise<{ default: typeof Page }>((r) => (resolve = () => r({ default: Page }))));
  return { load, mounts, resolve: () => resolve() };
}

describe('lazy pages', () => {
  it('a page whose code is here renders at once, without a loading state first', async () => {
    const { load, resolve } = deferredPage();
    const Page = lazy(load);
    const ready = Page.ready();
    resolve();
    await ready;
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page label="page" />
      </Suspense>,
    );
    // In the first commit: React's lazy would have shown the fallback and revealed the page later.
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('a page still loading shows the loading state, then the page, mounted once however often it renders', async () => {
    const { load, mounts, resolve } = deferredPage();
    const Page = lazy(load);
    let setLabel!: (l: string) => void;
    function Parent() {
      const [label, set] = useState('first');
      setLabel = set;
      return (
        <Suspense fallback={<p>loading</p>}>
          <Page label={label} />
        </Suspense>
      );
    }
    render(<Parent />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => resolve());
    expect(await screen.findByText('first')).toBeInTheDocument();
    act(() => setLabel('second'));
    expect(screen.getByText('second')).toBeInTheDocument();
    expect(mounts.count).toBe(1);
  });

  it('loads the code once, however often it is preloaded and rendered', async () => {
    const { load, resolve } = deferredPage();
    const Page = lazy(load);
    Page.preload();
    Page.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page label="page" />
      </Suspense>,
    );
    await act(async () => resolve());
    expect(await screen.findByText('page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
