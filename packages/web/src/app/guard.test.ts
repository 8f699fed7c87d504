import { describe, expect, it } from 'vitest';
import { decide, OPEN_PATHS } from './guard';

describe('decide (route guard of spec 1 §2.2)', () => {
  it('sends a signed-in user away from the login paths to /', () => {
    expect(decide('/login', '', true)).toEqual({ kind: 'redirect', to: '/' });
    expect(decide('/login/index', '', true)).toEqual({ kind: 'redirect', to: '/' });
    expect(decide('/login/', '', true)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('lets a signed-in user through everywhere else', () => {
    for (const path of ['/dashboard', '/network/lists', '/register', '/clause', '/404/index']) {
      expect(decide(path, '', true)).toEqual({ kind: 'pass' });
    }
  });

  it('opens exactly the eight public paths without a token', () => {
    expect(OPEN_PATHS).toEqual(['/login', '/register', '/privacy', '/reset', '/clause', '/handbook', '/download', '/validate/email']);
    for (const path of OPEN_PATHS) expect(decide(path, '', false)).toEqual({ kind: 'pass' });
  });

  it('sends everything else to /login with the way back', () => {
    expect(decide('/dashboard', '', false)).toEqual({ kind: 'redirect', to: '/login?redirect=%2Fdashboard' });
    expect(decide('/network/detail', '?network_number=N1', false)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fnetwork%2Fdetail%3Fnetwork_number%3DN1',
    });
    expect(decide('/', '', false)).toEqual({ kind: 'redirect', to: '/login?redirect=%2F' });
    expect(decide('/login/index', '', false)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('turns a query token anywhere into a forced logout towards /login?token=…', () => {
    expect(decide('/dashboard', '?token=abc', true)).toEqual({ kind: 'redirect', to: '/login?token=abc', logout: true });
    expect(decide('/clause', '?token=a%2Bb', false)).toEqual({ kind: 'redirect', to: '/login?token=a%2Bb', logout: true });
  });

  it('runs the authorised login on /login?token=…, signed in or not', () => {
    expect(decide('/login', '?token=abc', false)).toEqual({ kind: 'authorize', token: 'abc' });
    expect(decide('/login', '?token=abc', true)).toEqual({ kind: 'authorize', token: 'abc' });
  });
});
