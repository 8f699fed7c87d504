import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { isCalendarDate, pageQuery, requiredString, searchField } from './fields';
import { LIMITS } from './limits';
import { fmt, saasMessages } from './messages';

// SaaS devices (spec 3 §2 "SaaS devices", §3, §4, §5, §7): hardware members the operator put on the
// tenant with a category, an edition (share), bandwidths and addresses.

/** share of spec 3 §3: 1 shared edition (the tenant may edit its bandwidth), otherwise standard. */
export const SAAS_SHARED = 1;

/** Names a device (any text without control characters; the lookup decides). */
const saasNameField = requiredString(saasMessages.saasDeviceNotFound).max(64, saasMessages.saasDeviceNotFound);

/** A device as the list shows it. */
export const saasItem = z.object({
  router_name: z.string(),
  note: z.string(),
  /** 1 connected, otherwise disconnected. */
  online: z.number(),
  /** Mbs; 0 is shown as disabled. */
  bandwidth: z.number(),
  max_bandwidth: z.number(),
  share: z.number(),
});
export type SaasItem = z.infer<typeof saasItem>;

/** One category's devices; categories in name order, '' (no category) last. */
export const saasGroup = z.object({ category: z.string(), list: z.array(saasItem) });
export type SaasGroup = z.infer<typeof saasGroup>;

/** GET /saas/router: the tenant's devices grouped by category; search matches name and note. */
export const saasRouters = defineEndpoint({
  path: '/saas/router',
  method: 'GET',
  access: 'user',
  query: z.object({ search: searchField }),
  response: z.array(saasGroup),
});

export const saasDetail = saasItem.extend({
  category: z.string(),
  /** 'yyyy-MM-dd HH:mm:ss' or ''. */
  expire_date: z.string(),
  temp_bandwidth: z.number(),
  temp_start_date: z.string(),
  temp_expire_date: z.string(),
  ip: z.array(z.string()),
  router_model: z.string(),
  router_ipv4: z.string(),
  router_mac: z.string(),
  version: z.string(),
  /** Byte counters the device last reported. */
  input: z.number(),
  out: z.number(),
  /** Start of the current session, or ''. */
  online_time: z.string(),
});
export type SaasDetail = z.infer<typeof saasDetail>;

const byName = z.object({ router_name: saasNameField });

/** GET /saas/info: 204 when the tenant has no such SaaS device (the console goes back). */
export const saasInfo = defineEndpoint({ path: '/saas/info', method: 'GET', access: 'user', query: byName, response: saasDetail });

/** A dial-in record (spec 3 §3 "Hardware connection record"). */
export const saasConnectItem = z.object({
  ip: z.string(),
  origin: z.string(),
  /** Bytes of the device's flow records during the session. */
  input: z.number(),
  out: z.number(),
  session_date: z.string(),
  /** Seconds. */
  online_time: z.number(),
  /** '' while the session is up. */
  stop_time: z.string(),
});
export type SaasConnectItem = z.infer<typeof saasConnectItem>;

/** GET /saas/connect: the device's sessions, newest first; search matches the address or the origin. */
export const saasConnect = defineEndpoint({
  path: '/saas/connect',
  method: 'GET',
  access: 'user',
  query: pageQuery.extend({ router_name: saasNameField }),
  response: z.array(saasConnectItem),
  paged: true,
});

export const saasTrafficPoint = z.object({ time: z.string(), upload: z.number(), down: z.number() });
export type SaasTrafficPoint = z.infer<typeof saasTrafficPoint>;

/** GET /saas/traffic: per-minute averages (Mbit/s) of the last LIMITS.saasTrafficHours, oldest first. */
export const saasTraffic = defineEndpoint({ path: '/saas/traffic', method: 'GET', access: 'user', query: byName, response: z.array(saasTrafficPoint) });

const DATE_TIME_PATTERN = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** 'yyyy-MM-dd HH:mm:ss' naming a moment that exists. */
export const isDateTime = (v: string) => {
  const m = DATE_TIME_PATTERN.exec(v);
  return !!m && isCalendarDate(m[1]!);
};

const dateTimeField = z.string({ error: saasMessages.saasDateTimeInvalid }).trim().refine(isDateTime, saasMessages.saasDateTimeInvalid);

export const analysisQuery = byName
  .extend({ start_date: dateTimeField, end_date: dateTimeField })
  .refine((q) => q.start_date <= q.end_date, { path: ['end_date'], message: saasMessages.saasRangeOrder });

export const analysisRow = z.object({ name: z.string(), download_flow_sum: z.number(), upload_flow_sum: z.number() });
export type AnalysisRow = z.infer<typeof analysisRow>;

export const ANALYSIS_VIEWS = ['app_log', 'app_log_top', 'orig_scr_log', 'orig_scr_log_top'] as const;
export type AnalysisView = (typeof ANALYSIS_VIEWS)[number];

const analysis = <P extends string>(path: P) =>
  defineEndpoint({ path, method: 'GET', access: 'user', query: analysisQuery, response: z.array(analysisRow) });

/**
 * The analysis views: bytes per application (app) or source address (orig_scr) in the range. The
 * log views list names by download, at most LIMITS.saasLogRowsMax; the top views the LIMITS.saasTop
 * largest by download and upload together.
 */
export const saasAppLog = analysis('/saas/app_log');
export const saasAppLogTop = analysis('/saas/app_log_top');
export const saasOrigLog = analysis('/saas/orig_scr_log');
export const saasOrigLogTop = analysis('/saas/orig_scr_log_top');

/** The first rule a new bandwidth breaks (spec 3 §5), or null: shared by the dialog and the server. */
export function saasBandwidthError(value: number | null | undefined, max: number): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return saasMessages.saasBandwidthRequired;
  if (value <= 0) return saasMessages.saasBandwidthPositive;
  if (value > max) return fmt(saasMessages.saasBandwidthOverMax, { n: max });
  return null;
}

/** POST /saas/bandwidth: only a shared-edition device (share = 1), above 0 and at most its max_bandwidth. */
export const saasBandwidth = defineEndpoint({
  path: '/saas/bandwidth',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({
    router_name: saasNameField,
    bandwidth: z
      .number({ error: saasMessages.saasBandwidthRequired })
      .int(saasMessages.saasBandwidthRequired)
      .gt(0, saasMessages.saasBandwidthPositive)
      .max(LIMITS.saasBandwidthMax, fmt(saasMessages.saasBandwidthOverMax, { n: LIMITS.saasBandwidthMax })),
  }),
  response: noData,
});
