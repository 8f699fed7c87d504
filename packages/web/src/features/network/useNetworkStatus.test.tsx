import { LIMITS } from '@hublink/contract';
import { timeoutManager, type ManagedTimerId, type TimeoutCallback } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { ProvidersWrapper as wrapper } from '../../test/render';
import { useNetworkStatus } from './useNetworkStatus';

/**
 * TanStack Query's intervals, held by the test instead of the clock: `tick()` runs each one as if its
 * period had passed. Timeouts stay real. Set before any query of this file exists (a provider must not
 * change under running timers).
 */
const intervals = new Map<number, { run: TimeoutCallback; every: number }>();
let nextInterval = 1;
const toId = (id: ManagedTimerId | undefined) => (id === undefined ? undefined : Number(id));

function tick(every: number) {
  act(() => {
    for (const i of [...intervals.values()]) if (i.every === every) i.run();
  });
}

describe('useNetworkStatus', () => {
  beforeAll(() => {
    timeoutManager.setTimeoutProvider<ManagedTimerId>({
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (id) => clearTimeout(toId(id)),
      setInterval: (run, every) => {
        const id = nextInterval++;
        intervals.set(id, { run, every });
        return id;
      },
      clearInterval: (id) => void intervals.delete(toId(id)!),
    });
  });
  beforeEach(() => intervals.clear());

  it('polls every 10 s and stops when the page is left', async () => {
    const m = mockApi({ '/network/status': ok({ network_status: 1, link: [], link_count: 0, online: {}, device: {} }) });
    const { unmount } = renderHook(() => useNetworkStatus({ network_number: 'N1' }, true), { wrapper });
    await waitFor(() => expect(m.callsTo('/network/status')).toHaveLength(1));
    expect(m.callsTo('/network/status')[0]!.query).toEqual({ network_number: 'N1' });
    expect([...intervals.values()].map((i) => i.every)).toEqual([LIMITS.statusPollMs]);

    tick(LIMITS.statusPollMs);
    await waitFor(() => expect(m.callsTo('/network/status')).toHaveLength(2));

    unmount();
    expect(intervals.size).toBe(0);
    tick(LIMITS.statusPollMs);
    expect(m.callsTo('/network/status')).toHaveLength(2);
  });

  it('does not poll before the network is loaded', async () => {
    const m = mockApi({ '/network/status': ok({ network_status: 1, link: [], link_count: 0, online: {}, device: {} }) });
    renderHook(() => useNetworkStatus({ network_number: 'N1' }, false), { wrapper });
    // The hook settles with no interval set, so no period of any length would call.
    await waitFor(() => expect(intervals.size).toBe(0));
    tick(LIMITS.statusPollMs);
    expect(m.callsTo('/network/status')).toHaveLength(0);
  });
});
