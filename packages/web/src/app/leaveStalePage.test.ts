import { CODE, networkInfo } from '@hublink/contract';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyCatalogue, browser } from '../api/client';
import { toast } from '../api/notify';
import { leaveStalePage, listPathOf } from './leaveStalePage';
import { createAppRouter } from './router';

const page = { element: null };
const routes = ['/network/lists', '/network/detail', '/account/announcements', '/account/announcements/detail', '/dashboard', '/other'].map(
  (path) => ({ path, ...page }),
);
const at = (entries: string[]) => createMemoryRouter(routes, { initialEntries: entries, initialIndex: entries.length - 1 });
const where = (r: ReturnType<typeof at>) => r.state.location.pathname + r.state.location.search;

describe('leaving a stale page (code 204, spec 1 §8)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('goes back one page when the console has one behind', async () => {
    const router = at(['/other', '/network/detail?network_number=GONE']);
    leaveStalePage(router, true);
    await expect.poll(() => where(router)).toBe('/other');
  });

  it('goes to the list of the page, replacing the stale link, when the tab has no console page behind', async () => {
    const router = at(['/network/detail?network_number=GONE']);
    leaveStalePage(router, false);
    await expect.poll(() => where(router)).toBe('/network/lists');
    expect(router.state.historyAction).toBe('REPLACE');

    const notice = at(['/account/announcements/detail?id=999']);
    leaveStalePage(notice, false);
    await expect.poll(() => where(notice)).toBe('/account/announcements');
  });

  it('takes the list from the route table, else the overview', () => {
    expect(listPathOf('/network/detail')).toBe('/network/lists');
    expect(listPathOf('/network/edit')).toBe('/network/lists');
    expect(listPathOf('/account/announcements/detail')).toBe('/account/announcements');
    expect(listPathOf('/router/detail')).toBe('/router/lists');
    expect(listPathOf('/ticket/detail')).toBe('/ticket/lists');
    expect(listPathOf('/network/lists')).toBe('/dashboard');
    expect(listPathOf('/no/such/page')).toBe('/dashboard');
  });
});

describe('a 204 in the console', () => {
  const back = browser.back;
  afterEach(() => {
    browser.back = back;
    window.history.replaceState(null, '', '/');
  });

  it('shows the message and leaves a stale link opened in a new tab for the list', async () => {
    const error = vi.spyOn(toast, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/network/detail?network_number=GONE');
    const router = createAppRouter();
    applyCatalogue(networkInfo, { code: CODE.notFound, msg: '网络不存在' });
    expect(error).toHaveBeenCalledWith('网络不存在');
    await expect.poll(() => router.state.location.pathname).toBe('/network/lists');
    expect(window.location.pathname).toBe('/network/lists');
    router.dispose();
  });
});
