import { CODE, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import type { Actor, RoleAuth } from './actor';
import { ApiError } from './errors';
import { authorize } from './guard';
import { allowedNetworks, ensureNetworkAllowed, mayUseNetwork } from './networks';

const role = (network: string[]): RoleAuth => ({
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: 1, delete: 0, network },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
});
const main: Actor = { tenantId: 1, ramId: null, sessionId: 's', role: null };
const sub = (network: string[]): Actor => ({ tenantId: 1, ramId: 2, sessionId: 's', role: role(network) });

/** The refusal a call throws, as { code, msg }, or null when it passes. */
function refusal(run: () => void) {
  try {
    run();
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, msg: e.message };
  }
}

describe('allowedNetworks', () => {
  it('is null (every network) for a main account and for a role that lists none', () => {
    expect(allowedNetworks(main)).toBeNull();
    expect(allowedNetworks(sub([]))).toBeNull();
  });

  it('is null for a role stored without a network part', () => {
    const bare = { ...sub([]), role: { ...role([]), 'easylink.network': undefined } as unknown as RoleAuth };
    expect(allowedNetworks(bare)).toBeNull();
  });

  it("is the role's list when it names networks", () => {
    expect(allowedNetworks(sub(['NA', 'NB']))).toEqual(['NA', 'NB']);
  });
});

describe('mayUseNetwork and ensureNetworkAllowed', () => {
  it('let a main account and a role without a list use any network', () => {
    for (const actor of [main, sub([])]) {
      expect(mayUseNetwork(actor, 'NX')).toBe(true);
      expect(refusal(() => ensureNetworkAllowed(actor, 'NX'))).toBeNull();
    }
  });

  it('let a role with a list use those networks only, and refuse the others with 403', () => {
    const actor = sub(['NA']);
    expect(mayUseNetwork(actor, 'NA')).toBe(true);
    expect(mayUseNetwork(actor, 'NB')).toBe(false);
    expect(mayUseNetwork(actor, '')).toBe(false);
    expect(refusal(() => ensureNetworkAllowed(actor, 'NB'))).toEqual({ code: CODE.forbidden, msg: M.deniedNetwork });
  });
});

describe('authorize on a network-scoped call', () => {
  it('applies the same meaning: an empty list passes every network, a list only its own', () => {
    expect(refusal(() => authorize(sub([]), 'easylink.network.edit', 'NX'))).toBeNull();
    expect(refusal(() => authorize(sub(['NA']), 'easylink.network.edit', 'NA'))).toBeNull();
    expect(refusal(() => authorize(sub(['NA']), 'easylink.network.edit', 'NX'))).toEqual({ code: CODE.forbidden, msg: M.deniedNetwork });
    expect(refusal(() => authorize(main, 'easylink.network.edit', 'NX'))).toBeNull();
  });

  it('checks the permission before the network', () => {
    expect(refusal(() => authorize(sub(['NA']), 'easylink.network.delete', 'NX'))).toEqual({ code: CODE.forbidden, msg: M.deniedPermission });
  });
});
