import { createBrowserRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleEntryBehind } from './consoleHistory';

const routes = ['/network/lists', '/network/detail'].map((path) => ({ path, element: null }));

describe('consoleEntryBehind', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('knows from the browser history whether the console has a page behind', async () => {
    window.history.replaceState(null, '', '/network/detail?network_number=N1');
    // A new tab, or a link from elsewhere: the first entry the console numbers is 0.
    expect(consoleEntryBehind()).toBe(false);
    const router = createBrowserRouter(routes);
    expect(consoleEntryBehind()).toBe(false);
    await router.navigate('/network/lists');
    expect(consoleEntryBehind()).toBe(true);
    router.dispose();
    expect(consoleEntryBehind(null)).toBe(false);
    expect(consoleEntryBehind({ idx: 0 })).toBe(false);
  });
});
