import { POOL_DIALOG_DELAY_MS } from '@hublink/contract';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLater } from './useLater';

describe('useLater (the POP config’s 2.5 s before the pool dialog)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs after the delay and not a moment before; a newer call replaces the pending one', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useLater());
    const first = vi.fn();
    const second = vi.fn();
    result.current(POOL_DIALOG_DELAY_MS, first);
    vi.advanceTimersByTime(POOL_DIALOG_DELAY_MS - 1);
    expect(first).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(first).toHaveBeenCalledTimes(1);

    result.current(POOL_DIALOG_DELAY_MS, first);
    vi.advanceTimersByTime(1000);
    result.current(POOL_DIALOG_DELAY_MS, second);
    vi.advanceTimersByTime(POOL_DIALOG_DELAY_MS);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once the component is gone', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useLater());
    const run = vi.fn();
    result.current(POOL_DIALOG_DELAY_MS, run);
    unmount();
    vi.advanceTimersByTime(POOL_DIALOG_DELAY_MS * 2);
    expect(run).not.toHaveBeenCalled();
  });
});
