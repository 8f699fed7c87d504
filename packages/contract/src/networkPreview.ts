import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { networkPreviewMessages } from './messages';
import { networkNumberField } from './network';
import { editCenterGateway, editCenterLinkGateway, editPrefix, enableCenterLink, setCenterLink, setFixedPort, setPointLink } from './networkSegments';
import { disableQuagga, editRouting, enableQuagga, setCiphers, setDefaultRoute, setDns, setQuagga, setSoftwareMode } from './networkSettings';
import { editIpPool, setMemberOv, setNetworkFr } from './pop';

/*
 * A settings change's effect before it is saved (issue 36): the server makes the change in a
 * transaction it rolls back, compiles the network before and after, and answers which members and
 * LANs gain or lose reachability (in the normal state and with each center down), which members'
 * configurations change, and whether the caller's own connection runs through a member the change
 * cuts off. Ours: the spec is silent.
 */

/** The settings calls of the network detail a preview can run (every change of a network's settings that its dialogs make). */
export const PREVIEWABLE = [
  editRouting,
  setDns,
  setDefaultRoute,
  setCiphers,
  setSoftwareMode,
  setQuagga,
  enableQuagga,
  disableQuagga,
  editPrefix,
  setFixedPort,
  editCenterGateway,
  enableCenterLink,
  editCenterLinkGateway,
  setCenterLink,
  setPointLink,
  setNetworkFr,
  setMemberOv,
  editIpPool,
] as const;
export const PREVIEWABLE_PATHS = PREVIEWABLE.map((e) => e.path) as [PreviewablePath, ...PreviewablePath[]];
export type PreviewablePath = (typeof PREVIEWABLE)[number]['path'];

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

export const previewAnswer = z.object({
  /** Members whose configuration the change alters, adds or removes (the first PREVIEW_MEMBERS_SHOWN). */
  members: z.array(z.object({ router_name: z.string(), change: z.enum(['added', 'changed', 'removed']) })),
  member_count: z.number().int(),
  /** Pairs that gain or lose reachability (the first PREVIEW_REACH_SHOWN, losses first); null when the network is too large to compare. */
  reach: z.array(previewReach).nullable(),
  reach_count: z.number().int(),
  /** The member the caller's connection comes from (by its address), when it is one of the network's, and whether the change cuts it off. */
  viewer: z.object({ router_name: z.string(), cut: z.boolean() }).nullable(),
});
export type PreviewAnswer = z.infer<typeof previewAnswer>;

/** The first this many of each list are answered; the counts say how many there are. */
export const PREVIEW_MEMBERS_SHOWN = 100;
export const PREVIEW_REACH_SHOWN = 200;

/** POST /network/preview: the body of one of the previewable calls, run and rolled back; every refusal of that call answers as that call's. */
export const previewNetworkChange = defineEndpoint({
  path: '/network/preview',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    network_number: networkNumberField,
    path: z.enum(PREVIEWABLE_PATHS, { error: networkPreviewMessages.previewCallInvalid }),
    body: z.record(z.string(), z.unknown(), { error: networkPreviewMessages.previewCallInvalid }),
  }),
  response: previewAnswer,
  changesNothing: true,
});
