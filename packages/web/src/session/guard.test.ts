import type { RoleAuth, UserMessage } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { decide, mayVisit, OPEN_PATHS } from './guard';
import { mainUser, ramUser } from '../test/sessionFixtures';

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
    expect(OPEN_PATHS).toEqual(['/login', '/register', '/privacy', '/reset', '/clause', '/handbook', '/download', '/validate/email', '/self']);
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

describe('mayVisit (who may see a page: the route table’s access)', () => {
  const role = (network: Partial<RoleAuth['easylink.network']> = {}): RoleAuth => ({
    'easylink.router': { create: 0, edit: 0, delete: 0 },
    'easylink.network': { create: 0, edit: 0, delete: 0, network: [], ...network },
    monitor: { view: 1, create: 0, edit: 0, delete: 0 },
  });
  const sub = (r: RoleAuth): UserMessage => ({ ...ramUser, role: r });

  it('opens a page without access to everyone, and nothing with access before the user is known', () => {
    expect(mayVisit(undefined, null)).toBe(true);
    expect(mayVisit('main', null)).toBe(false);
    expect(mayVisit('easylink.network.create', null)).toBe(false);
  });

  it('opens every page to a main account', () => {
    expect(mayVisit('main', mainUser)).toBe(true);
    expect(mayVisit('easylink.network.create', mainUser)).toBe(true);
  });

  it('refuses main-account pages to a sub-account whatever its role', () => {
    expect(mayVisit('main', sub(role({ create: 1, edit: 1, delete: 1 })))).toBe(false);
  });

  it('opens a permission page to a sub-account only when its role grants it; view is always on', () => {
    expect(mayVisit('easylink.network.create', sub(role()))).toBe(false);
    expect(mayVisit('easylink.network.create', sub(role({ create: 1 })))).toBe(true);
    expect(mayVisit('easylink.network.edit', sub(role({ create: 1 })))).toBe(false);
    expect(mayVisit('easylink.network.edit', sub(role({ edit: 1 })))).toBe(true);
    expect(mayVisit('monitor.view', sub(role()))).toBe(true);
  });
});
