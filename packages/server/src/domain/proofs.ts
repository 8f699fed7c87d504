import { LIMITS } from '@hublink/contract';
import type { KvStore } from '../core/store';

/*
 * A proof is a code one call checked that lets a later call go ahead, once: the identity proof of
 * /verify/verify opens the account's changes of password, phone and email; the proof that a bound
 * phone or email was verified opens its change or removal (core/binding.ts). A proof lives as long
 * as a code and the change it opens uses it up. It is kept in the store, so every instance sees it.
 */

/** Where a proof is kept: the tenant, then what was proven ('verify_phone', 'member-phone:12'). */
export const proofKey = (tenantId: number, subject: string) => `verified:${tenantId}:${subject}`;

export async function leaveProof(store: KvStore, key: string): Promise<void> {
  await store.set(key, String(Date.now()), LIMITS.codeTtlSeconds);
}

export async function hasProof(store: KvStore, key: string): Promise<boolean> {
  return (await store.get(key)) !== null;
}

/** Uses up a proof; false when it is gone (expired, or used by a request that came first). */
export async function takeProof(store: KvStore, key: string): Promise<boolean> {
  return (await store.take(key)) !== null;
}
