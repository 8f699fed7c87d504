import { LIMITS } from '@hublink/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { mockApi, ok } from '../../test/mockApi';
import { useNetworkStatus } from './useNetworkStatus';

const wrapper = ({ children }: { children: ReactNode }) => <Providers>{children}</Providers>;

describe('useNetworkStatus', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 10 s and stops when the page is left', async () => {
    const m = mockApi({ '/network/status': ok({ network_status: 1, link: [], online: {} }) });
    const { unmount } = renderHook(() => useNetworkStatus('N1', true), { wrapper });
    await waitFor(() => expect(m.callsTo('/network/status')).toHaveLength(1));
    expect(m.callsTo('/network/status')[0]!.query).toEqual({ network_number: 'N1' });

    await act(() => vi.advanceTimersByTimeAsync(LIMITS.statusPollMs));
    await waitFor(() => expect(m.callsTo('/network/status')).toHaveLength(2));

    unmount();
    await act(() => vi.advanceTimersByTimeAsync(LIMITS.statusPollMs * 3));
    expect(m.callsTo('/network/status')).toHaveLength(2);
  });

  it('does not poll before the network is loaded', async () => {
    const m = mockApi({ '/network/status': ok({ network_status: 1, link: [], online: {} }) });
    renderHook(() => useNetworkStatus('N1', false), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(LIMITS.statusPollMs * 2));
    expect(m.callsTo('/network/status')).toHaveLength(0);
  });
});
