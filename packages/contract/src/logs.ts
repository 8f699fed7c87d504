import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { dateField, dateRangeInOrder, pageQuery, plainText } from './fields';
import { M } from './messages';

const logQuery = pageQuery.extend({
  /** One member's records (the member detail dialog). */
  router_name: plainText(M.validationFailed).max(64, M.validationFailed).optional(),
  start_time: dateField(M.logDateInvalid).optional(),
  end_time: dateField(M.logDateInvalid).optional(),
});

const inOrder = { path: ['end_time'], message: M.logRangeInvalid };

export const softwareLoginItem = z.object({
  router_name: z.string(),
  ip: z.string(),
  os: z.string(),
  version: z.string(),
  sys_brand: z.string(),
  sys_model: z.string(),
  sys_version: z.string(),
  create_time: z.string(),
});
export type SoftwareLoginItem = z.infer<typeof softwareLoginItem>;

/** GET /logs/software_login: software members' sign-ins, newest first (main accounts only, spec 3 §2). */
export const softwareLoginLog = defineEndpoint({
  path: '/logs/software_login',
  method: 'GET',
  access: 'main',
  query: logQuery.refine(dateRangeInOrder, inOrder),
  response: z.array(softwareLoginItem),
  paged: true,
});

export const ONLINE_MODES = ['p2p', 'pop'] as const;

export const onlineLogItem = z.object({
  router_name: z.string(),
  network_number: z.string(),
  link_router_name: z.string(),
  pop_name: z.string(),
  area: z.string(),
  orig: z.string(),
  vpn_ip: z.string(),
  start_time: z.string(),
  /** '' while the session is up. */
  end_time: z.string(),
  /** Seconds. */
  online_time: z.number(),
});
export type OnlineLogItem = z.infer<typeof onlineLogItem>;

/** GET /logs/online: p2p or POP sessions, newest first. */
export const onlineLog = defineEndpoint({
  path: '/logs/online',
  method: 'GET',
  access: 'user',
  query: logQuery.extend({ mode: z.enum(ONLINE_MODES, { error: M.validationFailed }).default('p2p') }).refine(dateRangeInOrder, inOrder),
  response: z.array(onlineLogItem),
  paged: true,
});
