import { ALERT_KINDS, M, monitorEnable, monitorSetting, type BodyOf } from '@hublink/contract';
import { expect } from 'vitest';
import { newAccount, type TestApp } from '../../../test/helpers';

// Shared by the monitoring module's tests: accounts with an email, monitoring switched on, snapshots.

let seq = 0;
const stamp = () => `${String(Date.now() % 100_000).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
export const freshEmail = (prefix = 'mon') => `${prefix}${stamp()}@example.com`;

/** A main account registered with an email (so email notifications may be switched on). */
export const accountWithEmail = (t: TestApp) => newAccount(t, { email: freshEmail('owner') });

/**
 * Monitoring on, and a setting saved through the real calls: switches off unless given, but for the
 * kinds of alert, of which one stays on (service expiry unless another is given; spec 3 §8).
 */
export async function monitorOn(t: TestApp, token: string, setting: Partial<BodyOf<typeof monitorSetting>> = {}) {
  expect((await t.call(monitorEnable, { token })).code).toBe(200);
  const kindGiven = ALERT_KINDS.some((k) => setting[k] === 1);
  const res = await t.call(monitorSetting, { token, body: { router_online: 0, router_offline: 0, service_expired: kindGiven ? 0 : 1, pop_connect: 0, ...setting } });
  expect(res.msg).toBe(M.saved);
}

const MONITOR_TABLES = ['monitor_config', 'monitor_router', 'monitor_contact', 'monitor_hook', 'monitor_state', 'monitor_alert', 'monitor_delivery', 'email_validation'] as const;

/** Every row a call of this module can change, besides the shared snapshot: compare one before and after a refusal. */
export async function monitorSnapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const out = await t.snapshot();
  for (const table of MONITOR_TABLES) {
    const rows = await t.db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** Expects a call to be refused with this code and message, and to have changed nothing. */
export async function expectRefused(t: TestApp, call: () => Promise<{ code: number; msg: string }>, code: number, msg: string): Promise<void> {
  const before = await monitorSnapshot(t);
  expect(await call()).toMatchObject({ code, msg });
  expect(await monitorSnapshot(t)).toEqual(before);
}
