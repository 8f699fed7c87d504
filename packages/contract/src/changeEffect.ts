import { z } from 'zod';

/*
 * A network change's effect (issue 36): the members whose configuration it alters, adds or removes,
 * and the pairs of members and LANs that gain or lose reachability, in the normal state and with each
 * center down. A preview answers it before the save; the save keeps it with the network's version and
 * the call's audit entry.
 */

/** Why a packet stops: no route, a deny row, no live path, it leaves the network, a routing loop, a member down. */
export const REACH_REFUSALS = ['no-route', 'denied', 'unreachable', 'outside', 'loop', 'down'] as const;
export type ReachRefusal = (typeof REACH_REFUSALS)[number];

/** Where traffic goes: a member's LAN prefix, its own address (prefix null), or the internet through the network. */
export const previewSite = z.object({
  member: z.string(),
  prefix: z.string().nullable(),
  internet: z.boolean(),
  /** A deny row of the member's. */
  denied: z.boolean(),
});

export const previewReach = z.object({
  /** '' for the normal state, else the center that is down in it. */
  state: z.string(),
  from: z.string(),
  to: previewSite,
  /** true: reached after the change and not before. */
  gained: z.boolean(),
  /** After the change: the members a packet passes (the first path that fails, there or back, else the first), and where it stops (back: on the answer's way). */
  path: z.array(z.string()),
  stop: z.object({ at: z.string(), why: z.enum(REACH_REFUSALS), back: z.boolean() }).nullable(),
});
export type PreviewReach = z.infer<typeof previewReach>;

/** What a settings change does to a network: answered by its preview, and kept with the version and the audit entry its save writes. */
export const changeEffect = z.object({
  /** Members whose configuration the change alters, adds or removes (the first PREVIEW_MEMBERS_SHOWN). */
  members: z.array(z.object({ router_name: z.string(), change: z.enum(['added', 'changed', 'removed']) })),
  member_count: z.number().int(),
  /** Pairs that gain or lose reachability (the first PREVIEW_REACH_SHOWN, losses first); null when the network is too large to compare. */
  reach: z.array(previewReach).nullable(),
  reach_count: z.number().int(),
});
export type ChangeEffect = z.infer<typeof changeEffect>;

/** The first this many of each list are answered; the counts say how many there are. */
export const PREVIEW_MEMBERS_SHOWN = 100;
export const PREVIEW_REACH_SHOWN = 200;

