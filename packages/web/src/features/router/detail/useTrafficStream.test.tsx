import { CODE, LIMITS, M } from '@hublink/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../api/session';
import { FakeSocket } from './fakeSocket';
import { trafficStreamUrl, useTrafficStream } from './useTrafficStream';

const traffic = (time: number, down = 8) => ({ code: CODE.ok, type: 'interface', data: [{ interface: 'eth0', time, down, upload: 1 }] });

describe('useTrafficStream', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    session.setToken('tok-1', 3600);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the stream with the token and router_name in the query, on the console host', () => {
    renderHook(() => useTrafficStream('gw 1'));
    expect(FakeSocket.latest().url).toBe(`ws://${window.location.host}/api/v1/router/traffic?token=tok-1&router_name=gw+1`);
    expect(trafficStreamUrl('a', 't', { protocol: 'https:', host: 'console.example' })).toBe('wss://console.example/api/v1/router/traffic?token=t&router_name=a');
  });

  it(`keeps the latest ${LIMITS.trafficWindow} points per interface`, () => {
    const { result } = renderHook(() => useTrafficStream('gw1'));
    const s = FakeSocket.latest();
    s.receive({ code: CODE.ok, msg: 'success' });
    expect(result.current.state).toEqual({ kind: 'open' });
    for (let t = 1; t <= 45; t++) s.receive(traffic(t));
    expect(result.current.series.eth0).toHaveLength(LIMITS.trafficWindow);
    expect(result.current.series.eth0!.at(-1)).toEqual({ time: 45, down: 8, upload: 1 });
  });

  it('reconnects 10 s after the connection closes, with the current token', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useTrafficStream('gw1'));
    FakeSocket.latest().drop();
    expect(result.current.state).toEqual({ kind: 'retrying' });
    session.setToken('tok-2', 3600);
    act(() => vi.advanceTimersByTime(LIMITS.trafficReconnectMs - 1));
    expect(FakeSocket.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.latest().url).toContain('token=tok-2');
    expect(result.current.state).toEqual({ kind: 'connecting' });
  });

  it('ends on a non-200 message and does not reconnect', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useTrafficStream('gw1'));
    const s = FakeSocket.latest();
    s.receive({ code: CODE.notFound, msg: M.memberNotFound });
    expect(result.current.state).toEqual({ kind: 'ended', msg: M.memberNotFound });
    expect(s.closed).toBe(true);
    act(() => vi.advanceTimersByTime(LIMITS.trafficReconnectMs * 3));
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('says so when the browser has no WebSocket', () => {
    vi.stubGlobal('WebSocket', undefined);
    const { result } = renderHook(() => useTrafficStream('gw1'));
    expect(result.current.state).toEqual({ kind: 'unsupported' });
  });

  it('starts over for another router: new connection, empty charts', () => {
    const { result, rerender } = renderHook(({ name }) => useTrafficStream(name), { initialProps: { name: 'gw1' } });
    const first = FakeSocket.latest();
    first.receive(traffic(1));
    expect(result.current.series.eth0).toHaveLength(1);
    rerender({ name: 'gw2' });
    expect(first.closed).toBe(true);
    expect(FakeSocket.latest().url).toContain('router_name=gw2');
    expect(result.current.series).toEqual({});
  });

  it('closes the connection and stops retrying when the page goes', () => {
    vi.useFakeTimers();
    const { unmount } = renderHook(() => useTrafficStream('gw1'));
    const s = FakeSocket.latest();
    unmount();
    expect(s.closed).toBe(true);
    act(() => vi.advanceTimersByTime(LIMITS.trafficReconnectMs * 2));
    expect(FakeSocket.all).toHaveLength(1);
  });
});
