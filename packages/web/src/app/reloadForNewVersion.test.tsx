import { render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazy } from './lazyPage';
import { page, reloadOnPreloadError } from './reloadForNewVersion';

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError = () => ({ failed: true });
  override render = () => (this.state.failed ? <p>failed</p> : this.props.children);
}

/** The build the page runs, as index.html names it. */
function runBuild(entry: string) {
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  const script = document.createElement('script');
  script.type = 'module';
  script.src = entry;
  document.head.append(script);
}

const missingChunk = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Page-old.js'));

function renderPage(load: () => Promise<{ default: () => ReactNode }>) {
  const Page = lazy(load);
  return render(
    <Boundary>
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>
    </Boundary>,
  );
}

describe('a chunk that fails to load', () => {
  let reload: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    sessionStorage.clear();
    runBuild('/assets/index-A.js');
    reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
  });

  afterEach(() => reload.mockRestore());

  it('reloads the page once and keeps it loading meanwhile; after the reload the same build shows the error', async () => {
    // React reports the error the boundary catches.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = renderPage(missingChunk);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByText('loading')).toBeInTheDocument();
    first.unmount();

    // The reloaded page is still build A (the chunk is really missing): no second reload.
    renderPage(missingChunk);
    expect(await screen.findByText('failed')).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    reported.mockRestore();
  });

  it('reloads once more when a later deploy leaves this build behind too', async () => {
    renderPage(missingChunk).unmount();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    runBuild('/assets/index-B.js');
    renderPage(missingChunk);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
  });

  it('does not reload for a page that loads', async () => {
    renderPage(() => Promise.resolve({ default: () => <p>the page</p> }));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it("reloads on Vite's preload error once per build, cancelling it so the import does not throw meanwhile", () => {
    const stop = reloadOnPreloadError();
    const preloadError = () => {
      const event = new Event('vite:preloadError', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(preloadError()).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(preloadError()).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
  });
});
