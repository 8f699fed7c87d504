import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { dateField, dateRangeInOrder, pageQuery, plainText, searchField } from './fields';
import { BM, logsMessages, ramMessages } from './messages';

const logQuery = pageQuery.extend({
  /** One member's records (the member detail dialog). */
  router_name: plainText(BM.validationFailed).max(64, BM.validationFailed).optional(),
  start_time: dateField(ramMessages.logDateInvalid).optional(),
  end_time: dateField(ramMessages.logDateInvalid).optional(),
});

const inOrder = { path: ['end_time'], message: ramMessages.logRangeInvalid };

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
  query: logQuery.extend({ mode: z.enum(ONLINE_MODES, { error: BM.validationFailed }).default('p2p') }).refine(dateRangeInOrder, inOrder),
  response: z.array(onlineLogItem),
  paged: true,
});

export const connectLogItem = z.object({
  router_name: z.string(),
  remote_ip: z.string(),
  remote_port: z.number(),
  version: z.string(),
  /** 1 the device's session began, 0 it ended. */
  online: z.number(),
  create_time: z.string(),
});
export type ConnectLogItem = z.infer<typeof connectLogItem>;

/**
 * A row of the connection log's other variant (spec 3 §3: "in one variant also network_number,
 * link_router_name, pop_name, area, orig, vpn_ip, start_time, end_time, online_time"): one p2p or POP
 * session with the device connection that carried it (remote address, port, version; '' and 0 when the
 * gateway recorded none); online 1 while the session is up, create_time its start.
 */
export const connectSessionItem = connectLogItem.extend(onlineLogItem.omit({ router_name: true }).shape);
export type ConnectSessionItem = z.infer<typeof connectSessionItem>;

/**
 * GET /logs/connect: the devices' session begins and ends, newest first; search is the member's name.
 * With mode (p2p or pop) it answers the variant with sessions instead (connectSessionItem rows; a
 * sub-account whose role lists networks sees the p2p sessions of those networks only).
 */
export const connectLog = defineEndpoint({
  path: '/logs/connect',
  method: 'GET',
  access: 'user',
  query: pageQuery
    .extend({
      start_time: dateField(ramMessages.logDateInvalid).optional(),
      end_time: dateField(ramMessages.logDateInvalid).optional(),
      mode: z.enum(ONLINE_MODES, { error: BM.validationFailed }).optional(),
    })
    .refine(dateRangeInOrder, inOrder),
  response: z.array(z.union([connectSessionItem, connectLogItem])),
  paged: true,
});

/** What GET /logs/export writes: one log (pop_online is the online log's POP mode). */
export const LOG_EXPORT_TYPES = ['connect', 'connect_p2p', 'connect_pop', 'online', 'pop_online', 'software_login'] as const;
export type LogExportType = (typeof LOG_EXPORT_TYPES)[number];

/** What GET /logs/export answers in its envelope's data (spec 3 §7: "returns file_name and data"). */
export const logExportFile = z.object({
  /** '<log>-yyyyMMdd.xlsx' (LOG_EXPORT_FILES, the day in the tenant's zone). */
  file_name: z.string(),
  /** The .xlsx workbook, standard base64 (RFC 4648 §4, padded, no line breaks); the console decodes it and saves file_name. */
  data: z.string(),
});
export type LogExportFile = z.infer<typeof logExportFile>;

/**
 * GET /logs/export: the rows of one log matching the page's search and days, newest first (at most
 * LIMITS.logExportRowsMax), as a one-sheet .xlsx in base64 inside the envelope; 422 with
 * routerMessages.exportEmpty when none match. software_login is for main accounts only (the service refuses sub-accounts).
 */
export const exportLogs = defineEndpoint({
  path: '/logs/export',
  method: 'GET',
  access: 'user',
  query: z
    .object({
      type: z.enum(LOG_EXPORT_TYPES, { error: BM.validationFailed }),
      search: searchField,
      start_time: dateField(ramMessages.logDateInvalid).optional(),
      end_time: dateField(ramMessages.logDateInvalid).optional(),
    })
    .refine(dateRangeInOrder, inOrder),
  response: logExportFile,
});

/** The header row of each export, in column order (the console's table headers are the same texts). */
export const LOG_EXPORT_COLUMNS: Record<LogExportType, readonly string[]> = {
  software_login: [logsMessages.logMember, logsMessages.logIp, logsMessages.logOs, logsMessages.logVersion, logsMessages.logSysBrand, logsMessages.logSysModel, logsMessages.logSysVersion, logsMessages.logLoginTime],
  online: [logsMessages.logMember, logsMessages.logNetwork, logsMessages.logPeer, logsMessages.logOrig, logsMessages.logVpnIp, logsMessages.logStart, logsMessages.logEnd, logsMessages.logDuration],
  pop_online: [logsMessages.logMember, logsMessages.logPop, logsMessages.logArea, logsMessages.logOrig, logsMessages.logVpnIp, logsMessages.logStart, logsMessages.logEnd, logsMessages.logDuration],
  connect: [logsMessages.logMember, logsMessages.logRemoteIp, logsMessages.logRemotePort, logsMessages.logVersion, logsMessages.logConnectState, logsMessages.logTime],
  connect_p2p: [logsMessages.logMember, logsMessages.logNetwork, logsMessages.logPeer, logsMessages.logRemoteIp, logsMessages.logRemotePort, logsMessages.logVersion, logsMessages.logOrig, logsMessages.logVpnIp, logsMessages.logStart, logsMessages.logEnd, logsMessages.logDuration],
  connect_pop: [logsMessages.logMember, logsMessages.logPop, logsMessages.logArea, logsMessages.logRemoteIp, logsMessages.logRemotePort, logsMessages.logVersion, logsMessages.logOrig, logsMessages.logVpnIp, logsMessages.logStart, logsMessages.logEnd, logsMessages.logDuration],
};

/** The downloaded file's name per log, without '-yyyyMMdd.xlsx'. */
export const LOG_EXPORT_FILES: Record<LogExportType, string> = {
  software_login: logsMessages.logFileSoftwareLogin,
  online: logsMessages.logFileOnline,
  pop_online: logsMessages.logFilePopOnline,
  connect: logsMessages.logFileConnect,
  connect_p2p: logsMessages.logFileConnectP2p,
  connect_pop: logsMessages.logFileConnectPop,
};
