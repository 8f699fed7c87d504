import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { idField, pageQuery } from './fields';
import { deviceApprovalMessages } from './messages';

/*
 * Devices join by approval (issue 30). A tenant setting: when it is on, the first sign-in of a hardware
 * router, or of a software member on a device it has not used before, waits (the gateway closes the
 * hello with DEVICE_CLOSE.awaitingApproval and the agent retries) until an administrator approves the
 * device in the console; a refused device is closed with DEVICE_CLOSE.deviceRefused. Off by default.
 * Devices seen while the setting is off are recorded as approved, so turning it on locks nobody out.
 */

export const DEVICE_APPROVAL_STATES = ['waiting', 'approved', 'refused'] as const;
export type DeviceApprovalState = (typeof DEVICE_APPROVAL_STATES)[number];

/** The list's filter: the devices that wait, the decided ones, or all. */
export const DEVICE_APPROVAL_FILTERS = ['waiting', 'decided', 'all'] as const;

export const deviceApprovalSetting = z.object({ enabled: z.union([z.literal(0), z.literal(1)]) });
export type DeviceApprovalSetting = z.infer<typeof deviceApprovalSetting>;

export const deviceApprovalItem = z.object({
  id: z.number(),
  /** The member the device signs in as (a router's name, a software member's username). */
  router_name: z.string(),
  /** 1 hardware router, 2 software client. */
  router_type: z.number(),
  /** The address the device's last hello came from. */
  ip: z.string(),
  os: z.string(),
  model: z.string(),
  brand: z.string(),
  state: z.enum(DEVICE_APPROVAL_STATES),
  first_time: z.string(),
  last_time: z.string(),
  /** Who decided: the main account's or sub-account's username; '' when approved automatically (seen while the setting was off). */
  decided_by: z.string(),
  decided_time: z.string(),
});
export type DeviceApprovalItem = z.infer<typeof deviceApprovalItem>;

/** GET /device_approval/setting: whether new devices need approval. */
export const getDeviceApprovalSetting = defineEndpoint({
  path: '/device_approval/setting',
  method: 'GET',
  access: 'user',
  response: deviceApprovalSetting,
});

/** POST /device_approval/setting: turns approval on or off (main account only: it can lock the tenant's devices out). */
export const saveDeviceApprovalSetting = defineEndpoint({
  path: '/device_approval/setting',
  method: 'POST',
  access: 'main',
  body: z.object({ enabled: z.union([z.literal(0), z.literal(1)], { error: deviceApprovalMessages.deviceApprovalSettingInvalid }) }),
  response: noData,
});

/** GET /device_approval/lists: the tenant's devices, waiting ones first then newest; search matches the member's name, the address and the model. */
export const listDeviceApprovals = defineEndpoint({
  path: '/device_approval/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery.extend({ state: z.enum(DEVICE_APPROVAL_FILTERS, { error: deviceApprovalMessages.deviceApprovalFilterInvalid }).default('waiting') }),
  response: z.array(deviceApprovalItem),
  paged: true,
});

/** POST /device_approval/approve: a waiting or refused device may sign in (at its next retry). */
export const approveDevice = defineEndpoint({
  path: '/device_approval/approve',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ id: idField() }),
  response: noData,
});

/** POST /device_approval/refuse: a waiting or approved device may not sign in; an approved one online is closed. */
export const refuseDevice = defineEndpoint({
  path: '/device_approval/refuse',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ id: idField() }),
  response: noData,
});
