import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMERS } from './config';
import { pathKey, Paths } from './paths';

describe('paths and their hold-down', () => {
  const timers = { ...DEFAULT_TIMERS, hold_down: 5, hold_down_max: 30, flap_window: 120 };

  it('uses a path that comes up for the first time at once, and holds one that failed before', () => {
    let now = 0;
    const paths = new Paths(() => now);
    const key = pathKey('N1', 'center-a');
    expect(paths.state(key, timers)).toBe('down');
    paths.set(key, true, timers);
    expect(paths.state(key, timers)).toBe('ready');
    now = 1000;
    paths.set(key, false, timers);
    now = 2000;
    paths.set(key, true, timers);
    expect([paths.state(key, timers), paths.holdDownMs(key, timers)]).toEqual(['held', 5000]);
    now = 7000;
    expect(paths.state(key, timers)).toBe('ready');
  });

  it('doubles the hold-down for each failure within the window, up to the maximum, and forgets old ones', () => {
    let now = 0;
    const paths = new Paths(() => now);
    const key = pathKey('N1', 'router', 'p1');
    paths.set(key, true, timers);
    const flap = () => {
      now += 1000;
      paths.set(key, false, timers);
      now += 1000;
      paths.set(key, true, timers);
      return paths.holdDownMs(key, timers);
    };
    expect([flap(), flap(), flap(), flap(), flap()]).toEqual([5000, 10000, 20000, 30000, 30000]);
    now += 121_000;
    paths.set(key, false, timers);
    now += 1000;
    paths.set(key, true, timers);
    expect(paths.holdDownMs(key, timers)).toBe(5000);
  });

  it('forgets a network that left', () => {
    const paths = new Paths(() => 0);
    paths.set(pathKey('N1', 'center-a'), true, timers);
    paths.set(pathKey('N2', 'center-a'), true, timers);
    paths.forget('N1');
    expect([paths.isUp(pathKey('N1', 'center-a')), paths.isUp(pathKey('N2', 'center-a'))]).toEqual([false, true]);
  });
});
