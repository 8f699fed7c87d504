import { createHash, randomBytes } from 'node:crypto';
import { M } from '@hublink/contract';
import { invalid } from '../core/errors';
import type { KvStore } from '../core/store';

/*
 * The two steps of a destructive tool: called without `confirm` it changes nothing and answers its plan
 * with a plan id; called again with the same arguments and `confirm: <plan id>` it makes the change.
 * A plan id is random, used once, lives PLAN_TTL_SECONDS, and is bound to the token that obtained it
 * and to a digest of the tool's name and exact arguments. Plans live in the app's key-value store
 * (Redis when instances share one), so any instance can confirm a plan another one made.
 */

/** How long a plan can be confirmed. */
export const PLAN_TTL_SECONDS = 600;

const PLAN_PREFIX = 'plan_';
const PLAN_ID = /^plan_[A-Za-z0-9_-]{22}$/;
const keyOf = (planId: string) => `mcp:plan:${planId}`;

interface StoredPlan {
  tokenId: number;
  digest: string;
}

/** JSON with every object's keys in order, so equal arguments give equal text whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a plan is bound to besides its token: the tool and its arguments (without `confirm`). */
export const argumentsDigest = (tool: string, args: Record<string, unknown>): string =>
  createHash('sha256').update(canonical({ tool, args })).digest('hex');

/** Keeps a plan for the token and answers its id. */
export async function issuePlan(store: KvStore, tokenId: number, digest: string): Promise<string> {
  const planId = PLAN_PREFIX + randomBytes(16).toString('base64url');
  const plan: StoredPlan = { tokenId, digest };
  await store.set(keyOf(planId), JSON.stringify(plan), PLAN_TTL_SECONDS);
  return planId;
}

/**
 * Uses up a plan, or refuses (422) with what is wrong: no such live plan (unknown, used, expired),
 * another token's, or other arguments. A refused confirmation leaves the plan as it was (a stranger
 * who guessed or saw an id cannot spend it); a plan is taken at most once, even by two racing calls.
 */
export async function redeemPlan(store: KvStore, planId: string, tokenId: number, digest: string): Promise<void> {
  if (!PLAN_ID.test(planId)) throw invalid(M.mcpPlanUnknown);
  const stored = await store.get(keyOf(planId));
  if (stored === null) throw invalid(M.mcpPlanUnknown);
  const plan = JSON.parse(stored) as StoredPlan;
  if (plan.tokenId !== tokenId) throw invalid(M.mcpPlanOtherToken);
  if (plan.digest !== digest) throw invalid(M.mcpPlanOtherArguments);
  if ((await store.take(keyOf(planId))) === null) throw invalid(M.mcpPlanUnknown);
}
