import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { changeEffect } from './changeEffect';
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

/** What the caller's connection has to do with the change: the member it comes from (by its address), when it is one of the network's, and whether the change cuts it off. */
export const previewAnswer = changeEffect.extend({
  viewer: z.object({ router_name: z.string(), cut: z.boolean() }).nullable(),
});
export type PreviewAnswer = z.infer<typeof previewAnswer>;

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
