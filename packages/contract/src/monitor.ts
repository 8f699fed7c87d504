import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { plainText } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, monitorMessages } from './messages';

/** A 0/1 flag as the monitoring calls answer it. */
export const monitorFlag = z.union([z.literal(0), z.literal(1)]);
export type MonitorFlag = z.infer<typeof monitorFlag>;

/** A 0/1 flag of a request; missing means 0. */
const flagField = (fallback: MonitorFlag = 0) => z.union([z.literal(0), z.literal(1)], { error: BM.validationFailed }).default(fallback);

/** What an alert can be about (spec 3 §3, the alert configuration's switches). */
export const ALERT_KINDS = ['router_online', 'router_offline', 'service_expired', 'pop_connect'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A monitored device: a hardware member of the tenant. */
export const monitorRouter = z.object({ router_name: z.string(), note: z.string() });
export type MonitorRouter = z.infer<typeof monitorRouter>;

/**
 * The alert configuration (spec 3 §3): the channels (the portal message is always on), the kinds of
 * alert, and the monitored devices; `enable` says whether monitoring is on.
 */
export const monitorConfigData = z.object({
  enable: monitorFlag,
  portal_confirm: monitorFlag,
  email_confirm: monitorFlag,
  webhook_confirm: monitorFlag,
  router_online: monitorFlag,
  router_offline: monitorFlag,
  service_expired: monitorFlag,
  pop_connect: monitorFlag,
  router: z.array(monitorRouter),
});
export type MonitorConfig = z.infer<typeof monitorConfigData>;

/** GET /monitor/config: the configuration, also while monitoring is off (kept from the last time it was on). */
export const monitorConfig = defineEndpoint({
  path: '/monitor/config',
  method: 'GET',
  access: 'monitor.view',
  response: monitorConfigData,
});

/** GET /monitor/routers: every hardware member of the tenant, the devices monitoring can watch. */
export const monitorRouters = defineEndpoint({
  path: '/monitor/routers',
  method: 'GET',
  access: 'monitor.view',
  response: z.array(monitorRouter),
});

/**
 * POST /monitor/setting (role: monitor edit, "settings"): the channels, the kinds and the devices by
 * name. portal_confirm is always stored as 1; email needs the account's email, the webhook a
 * configured webhook; at least one kind of alert is on; every name must be a hardware member of the tenant.
 */
export const monitorSetting = defineEndpoint({
  path: '/monitor/setting',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({
    portal_confirm: flagField(1),
    email_confirm: flagField(),
    webhook_confirm: flagField(),
    router_online: flagField(),
    router_offline: flagField(),
    service_expired: flagField(),
    pop_connect: flagField(),
    router: z
      .array(plainText(BM.validationFailed).max(LIMITS.monitorRouterNameMax, BM.validationFailed), { error: BM.validationFailed })
      .max(LIMITS.monitorRoutersMax, fmt(monitorMessages.monitorRoutersTooMany, { n: LIMITS.monitorRoutersMax }))
      .default([]),
  })
  // Spec 3 §8: a checkbox group keeps at least one ticked ('select at least one'); the kinds are one group.
  .refine((v) => ALERT_KINDS.some((k) => v[k] === 1), { path: ['router_online'], message: monitorMessages.monitorKindsRequired }),
  response: noData,
});

/** POST /monitor/enable (role: monitor create, "enable"). */
export const monitorEnable = defineEndpoint({
  path: '/monitor/enable',
  method: 'POST',
  access: 'monitor.create',
  response: noData,
});

/** POST /monitor/close (role: monitor delete, "disable"): alerts stop; the configuration is kept. */
export const monitorClose = defineEndpoint({
  path: '/monitor/close',
  method: 'POST',
  access: 'monitor.delete',
  response: noData,
});
