import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { overviewMessages } from './messages';

/*
 * The live overview under the dashboard's user card and tiles (issue 18, "A live overview"): the
 * figures an administrator opens the console for, each a link to the filtered list behind it.
 */

/**
 * A filter of the member list that an overview figure links to (`/router/lists?type=1&state=online`):
 * online now; behind on configuration (a network's compiled version is newer than the one the device
 * applied); offline and unseen for LIMITS.overviewOfflineMs.
 */
export const MEMBER_STATE = { online: 'online', behind: 'behind', offlineDay: 'offline_day' } as const;
export type MemberState = (typeof MEMBER_STATE)[keyof typeof MEMBER_STATE];
export const memberStateField = z.enum([MEMBER_STATE.online, MEMBER_STATE.behind, MEMBER_STATE.offlineDay], { error: overviewMessages.memberStateInvalid });

/** Members of each kind. */
export const byMemberType = z.object({ hardware: z.number(), software: z.number() });
export type ByMemberType = z.infer<typeof byMemberType>;

const used = z.object({ used: z.number(), max: z.number() });

export const overview = z.object({
  /** Networks the caller may see (a role's list limits it). */
  networks: z.number(),
  members: byMemberType,
  online: byMemberType,
  /** Members with a configuration in a visible network that the device has not applied yet. */
  behind: byMemberType,
  /** Offline now and not seen (no session begun or ended) for LIMITS.overviewOfflineMs. */
  offline_day: byMemberType,
  /** Monitoring alerts raised in the last LIMITS.overviewAlertsMs. */
  alerts: z.number(),
  quota: z.object({
    /** Members of the tenant against the plan's member limit. */
    members: used,
    /** Members in at least one network against the same limit (spec 2's network_router_use). */
    networked: used,
    /** Centers one network may have. */
    centers: z.number(),
    /** Sub-accounts against the plan; null for a sub-account, which does not manage them. */
    ram: used.nullable(),
  }),
});
export type Overview = z.infer<typeof overview>;

/** GET /dashboard/overview: every figure of the overview in one call. */
export const dashboardOverview = defineEndpoint({
  path: '/dashboard/overview',
  method: 'GET',
  access: 'user',
  response: overview,
});
