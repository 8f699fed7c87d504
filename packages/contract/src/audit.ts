import { z } from 'zod';
import { changeEffect } from './changeEffect';
import { defineEndpoint, noData } from './endpoint';
import { dateField, dateRangeInOrder, integerField, pageQuery, plainText, searchField } from './fields';
import { LIMITS } from './limits';
import { BM, auditMessages, ramMessages } from './messages';
import { auditActionKnown } from './auditActions';
import { auditTableName } from './auditFields';

export { AUDIT_ACTION_PATHS, auditActionKnown } from './auditActions';
export { auditFieldKnown, auditFieldLabel, auditFieldShown, auditFieldName, auditNameList, auditReference, auditTableName, referenceIds, auditValueText, isAuditInstant, type AuditReference } from './auditFields';

/** Who made a call: the main account, a sub-account, a personal API token, or the operator (CLI). */
export const AUDIT_WHO = ['main', 'ram', 'token', 'operator'] as const;
export type AuditWho = (typeof AUDIT_WHO)[number];
/** Where from: the console (a session), the API (a token), the operator's CLI. */
export const AUDIT_SOURCES = ['console', 'api', 'cli'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];
/** What the call did to its main object (its first changed row); other: nothing stored changed. */
export const AUDIT_KINDS = ['create', 'update', 'delete', 'other'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_OPS = ['insert', 'update', 'delete'] as const;
export type AuditOp = (typeof AUDIT_OPS)[number];

const auditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One column that changed: before and after (null for none); a secret only says it changed (both null).
 * A column holding another row's id (auditReference) carries that row's name as it was at the change
 * (issue 31), when the row was known: entries from before have none.
 */
export const auditField = z.object({
  field: z.string(),
  before: auditValue,
  after: auditValue,
  secret: z.boolean().optional(),
  before_name: z.string().optional(),
  after_name: z.string().optional(),
});
export type AuditField = z.infer<typeof auditField>;

/**
 * One row a call changed: its table, its id (null when the database did not tell it), its name when it
 * has a name-like column (as it was at the change; entries from before names were recorded have none)
 * and the columns that changed.
 */
export const auditRowChange = z.object({
  table: z.string(),
  id: z.union([z.number(), z.string(), z.null()]),
  name: z.string().optional(),
  op: z.enum(AUDIT_OPS),
  fields: z.array(auditField),
});
export type AuditRowChange = z.infer<typeof auditRowChange>;

/** The object a call acted on (its first changed row, or the network or member its body names). */
export const auditObject = z.object({ type: z.string(), id: z.string(), name: z.string() });
export type AuditObject = z.infer<typeof auditObject>;

export const auditEntry = z.object({
  id: z.number(),
  create_time: z.string(),
  who: z.enum(AUDIT_WHO),
  /** The sub-account's username, the token's name or id, the operator's name; '' for the main account. */
  actor_name: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  source: z.enum(AUDIT_SOURCES),
  method: z.string(),
  path: z.string(),
  msg: z.string(),
  /** What the call did, named from its path ('修改网络名称'); see auditActionName. */
  action: z.string(),
  /** The call's area: the first segment of its path ('network', 'router', …). */
  area: z.string(),
  kind: z.enum(AUDIT_KINDS),
  object_type: z.string(),
  object_id: z.string(),
  object_name: z.string(),
  changes: z.array(auditRowChange),
  /** Row changes beyond LIMITS.auditChangesMax, not kept. */
  more: z.number(),
  /** A network settings call's effect (issue 36): members reconfigured, pairs that gain or lose reachability; null for any other call. */
  effect: changeEffect.nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

const auditFilter = {
  /** Sub-account username, token name, operator: contains; or a who kind ('main', 'ram', 'token', 'operator'). */
  who: searchField,
  /** The object's type, id or name contains it. */
  object: searchField,
  start_time: dateField(ramMessages.logDateInvalid).optional(),
  end_time: dateField(ramMessages.logDateInvalid).optional(),
  kind: z.enum(AUDIT_KINDS, { error: BM.validationFailed }).optional(),
  area: plainText(auditMessages.auditAreaInvalid).trim().max(32, auditMessages.auditAreaInvalid).optional(),
};
const inOrder = { path: ['end_time'], message: ramMessages.logRangeInvalid };

/** GET /audit/list: the tenant's audit entries, newest first, with their changes (main accounts only). */
export const auditList = defineEndpoint({
  path: '/audit/list',
  method: 'GET',
  access: 'main',
  query: pageQuery.extend(auditFilter).refine(dateRangeInOrder, inOrder),
  response: z.array(auditEntry),
  paged: true,
});

export const auditExportFile = z.object({
  /** '审计日志-yyyyMMdd.xlsx'. */
  file_name: z.string(),
  /** The .xlsx workbook in standard base64. */
  data: z.string(),
});
export type AuditExportFile = z.infer<typeof auditExportFile>;

/** GET /audit/export: the entries the list's filters match, newest first (at most LIMITS.auditExportRowsMax), as .xlsx. */
export const auditExport = defineEndpoint({
  path: '/audit/export',
  method: 'GET',
  access: 'main',
  query: z.object({ search: searchField, ...auditFilter }).refine(dateRangeInOrder, inOrder),
  response: auditExportFile,
});

/** The header row of the export, in column order. */
export const AUDIT_EXPORT_COLUMNS = [auditMessages.auditTime, auditMessages.auditWho, auditMessages.auditSource, auditMessages.auditIp, auditMessages.auditCall, auditMessages.auditPath, auditMessages.auditKind, auditMessages.auditObject, auditMessages.auditChanges] as const;

export const auditSetting = z.object({ retention_days: z.number() });
export type AuditSetting = z.infer<typeof auditSetting>;

/** GET /audit/setting: how many days entries are kept. */
export const auditSettingGet = defineEndpoint({
  path: '/audit/setting',
  method: 'GET',
  access: 'main',
  response: auditSetting,
});

/** POST /audit/setting: sets the days entries are kept (a daily job removes older ones). */
export const auditSettingSave = defineEndpoint({
  path: '/audit/setting',
  method: 'POST',
  access: 'main',
  body: z.object({
    retention_days: integerField(auditMessages.auditRetentionInvalid, LIMITS.auditRetentionDaysMin, LIMITS.auditRetentionDaysMax),
  }),
  response: noData,
});

export const AUDIT_WHO_TEXT: Readonly<Record<AuditWho, string>> = { main: auditMessages.auditWhoMain, ram: auditMessages.auditWhoRam, token: auditMessages.auditWhoToken, operator: auditMessages.auditWhoOperator };
export const AUDIT_SOURCE_TEXT: Readonly<Record<AuditSource, string>> = { console: auditMessages.auditSourceConsole, api: auditMessages.auditSourceApi, cli: auditMessages.auditSourceCli };
export const AUDIT_KIND_TEXT: Readonly<Record<AuditKind, string>> = { create: auditMessages.auditKindCreate, update: auditMessages.auditKindUpdate, delete: auditMessages.auditKindDelete, other: auditMessages.auditKindOther };
export const AUDIT_OP_TEXT: Readonly<Record<AuditOp, string>> = { insert: auditMessages.auditOpInsert, update: auditMessages.auditOpUpdate, delete: auditMessages.auditOpDelete };

/** What a call did by its path ('/network/name' → '修改网络名称'); a path without a name (a call since removed) → 其他操作. */
export const auditActionName = (path: string): string => auditActionKnown(path) ?? auditMessages.auditActionOther;

/**
 * '子账号 zhang' / '主账号' / 'API令牌 部署脚本'. The operator is 平台运营人员 only: the name kept with the
 * entry is the system user who ran the command on the server, not a name the tenant knows.
 */
export const auditWhoText = (e: Pick<AuditEntry, 'who' | 'actor_name'>): string =>
  e.actor_name && e.who !== 'operator' ? `${AUDIT_WHO_TEXT[e.who]} ${e.actor_name}` : AUDIT_WHO_TEXT[e.who];

/** '网络 #3 改名网络'. */
export const auditObjectText = (e: Pick<AuditEntry, 'object_type' | 'object_id' | 'object_name'>): string =>
  [auditTableName(e.object_type), e.object_id ? `#${e.object_id}` : '', e.object_name].filter(Boolean).join(' ');
