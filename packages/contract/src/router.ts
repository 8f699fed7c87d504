import { z } from 'zod';
import { areaCodeField, BIND_TYPE, bindTypeField, checkBindCode, isUnbind } from './account';
import { defineEndpoint, noData, xlsxFile } from './endpoint';
import { codeField, idField, integerField, pageQuery, plainText, requiredString, searchField } from './fields';
import { LIMITS } from './limits';
import { accountMessages, fmt, routerMessages } from './messages';
import { memberStateField } from './overview';

/** router_type of spec 3 §3. */
export const ROUTER_TYPE = { hardware: 1, software: 2 } as const;
export type RouterType = (typeof ROUTER_TYPE)[keyof typeof ROUTER_TYPE];
export const routerTypeField = integerField(routerMessages.memberTypeInvalid, ROUTER_TYPE.hardware, ROUTER_TYPE.software).pipe(
  z.union([z.literal(ROUTER_TYPE.hardware), z.literal(ROUTER_TYPE.software)], { error: routerMessages.memberTypeInvalid }),
);

/** A member's account (software) or router_name (hardware): letters, digits, '_' and '.', at most 18. */
export const MEMBER_NAME_PATTERN = /^[A-Za-z0-9_.]+$/;
export const memberNameField = requiredString(routerMessages.memberAccountRequired)
  .max(LIMITS.memberNameMax, routerMessages.memberAccountTooLong)
  .regex(MEMBER_NAME_PATTERN, routerMessages.memberAccountChars);

/** Names a member in a query or body (any existing member's name; lookup decides). */
export const routerNameField = requiredString(routerMessages.memberNotFound).max(64, routerMessages.memberNotFound);

export const memberPasswordField = z
  .string({ error: routerMessages.memberPasswordRequired })
  .min(1, routerMessages.memberPasswordRequired)
  .min(LIMITS.memberPasswordMin, routerMessages.memberPasswordLength)
  .max(LIMITS.memberPasswordMax, routerMessages.memberPasswordLength);

export const memberNoteField = plainText(routerMessages.memberNoteTooLong)
  .max(LIMITS.memberNoteMax, routerMessages.memberNoteTooLong)
  .default('');

/** Mainland member phones (spec 3 §5): 11 digits, 1 then 3, 4, 5, 7 or 8. */
export const MEMBER_MOBILE_PATTERN = /^1[34578]\d{9}$/;
const OTHER_MOBILE = /^\d{4,15}$/;

/** The first rule a member's phone breaks, or null. */
export function memberPhoneError(area: string, phone: string, required: string = accountMessages.bindPhoneRequired): string | null {
  const a = area.trim().replace(/^\+/, '');
  const p = phone.trim();
  if (!p) return required;
  if (!/^\d{1,4}$/.test(a)) return accountMessages.areaCodeInvalid;
  return (a === LIMITS.defaultAreaCode ? MEMBER_MOBILE_PATTERN : OTHER_MOBILE).test(p) ? null : accountMessages.mobileInvalid;
}

/** A member as the list gives it (spec 3 §3); the phone is '+86 13800000000' or ''. */
export const routerItem = z.object({
  router_name: z.string(),
  note: z.string(),
  router_type: z.number(),
  phone: z.string(),
  area_number: z.string(),
  /** 1 logged in, 0 not. */
  online_status: z.number(),
  version: z.string(),
  os: z.string(),
  /** console | import | ldap */
  source: z.string(),
  /** 1 normal, otherwise disabled. */
  status: z.number(),
  name: z.string(),
  create_time: z.string(),
});
export type RouterItem = z.infer<typeof routerItem>;

/**
 * GET /router/lists: one tab (type 1 hardware, 2 software); search matches name and note; `state`
 * keeps the members an overview figure counts (contract/overview.ts).
 */
export const listRouters = defineEndpoint({
  path: '/router/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery.extend({ type: routerTypeField.default(ROUTER_TYPE.hardware), state: memberStateField.optional() }),
  response: z.array(routerItem),
  paged: true,
});

export const memberOption = z.object({ router_name: z.string(), note: z.string(), router_type: z.number(), online: z.number() });
export type MemberOption = z.infer<typeof memberOption>;

/** GET /router/member: every member of the tenant for the network pickers, hardware (router) and software (app). */
export const routerMembers = defineEndpoint({
  path: '/router/member',
  method: 'GET',
  access: 'user',
  response: z.object({ router: z.array(memberOption), app: z.array(memberOption) }),
});

/** GET /router/quantity: members in use and the plan's limit (network_router_count). */
export const routerQuantity = defineEndpoint({
  path: '/router/quantity',
  method: 'GET',
  access: 'user',
  response: z.object({ hardware: z.number(), software: z.number(), max: z.number(), software_surplus: z.number() }),
});

/** GET /router/software and /router/hardware: the names of one kind of member (selects elsewhere). */
const memberNames = <const P extends string>(path: P) =>
  defineEndpoint({ path, method: 'GET', access: 'user', query: z.object({ search: searchField }), response: z.array(memberOption) });
export const routerSoftware = memberNames('/router/software');
export const routerHardware = memberNames('/router/hardware');

/** An interface the device reported in its hello (spec 3 §3 Interface). */
export const routerInterface = z.object({
  interface_uuid: z.string(),
  interface: z.string(),
  /** static | dhcp | pppoe */
  protocol: z.string(),
  ipv4: z.string(),
  ipv4_subnet_mask: z.string(),
  mtu: z.number(),
});
export type RouterInterface = z.infer<typeof routerInterface>;

export const routerDetail = routerItem.extend({
  router_model: z.string(),
  router_ipv4: z.string(),
  router_mac: z.string(),
  /** 'yyyy-MM-dd HH:mm:ss' of the current session's start, or ''. */
  online_time: z.string(),
  network: z.array(z.object({ network_name: z.string(), network_number: z.string(), network_member_count: z.number() })),
  interfaces: z.array(routerInterface),
  /** Bytes received and sent by the device's tunnel since its tunnel process started (as last reported). */
  input: z.number(),
  out: z.number(),
});
export type RouterDetail = z.infer<typeof routerDetail>;

/** GET /router/info: 204 when the tenant has no such member (the console goes to /router/lists). */
export const routerInfo = defineEndpoint({
  path: '/router/info',
  method: 'GET',
  access: 'user',
  query: z.object({ router_name: routerNameField }),
  response: routerDetail,
});

/** GET /router/traffic: the member's online flag and byte totals, for a refresh without the whole info. */
export const routerTraffic = defineEndpoint({
  path: '/router/traffic',
  method: 'GET',
  access: 'user',
  query: z.object({ router_name: routerNameField }),
  response: z.object({ online: z.number(), input: z.number(), out: z.number() }),
});

/**
 * The live stream shares that path (WS /api/v1/router/traffic?token=…&router_name=…): a browser's
 * WebSocket cannot send an Authorization header, so the token travels in the query. Every message
 * is a consoleTrafficMessage (device.ts); the first is {code: 200, msg: 'success'} once the stream is
 * open, any other code is the last one before the server closes it.
 */
export const ROUTER_TRAFFIC_STREAM = { path: '/router/traffic', tokenParam: 'token', nameParam: 'router_name' } as const;

export const noteRouter = defineEndpoint({
  path: '/router/note',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ router_name: routerNameField, note: memberNoteField }),
  response: noData,
});

/** POST /router/delete: the member leaves every network with it. */
export const deleteRouter = defineEndpoint({
  path: '/router/delete',
  method: 'POST',
  access: 'easylink.router.delete',
  body: z.object({ router_name: routerNameField }),
  response: noData,
});

/** POST /router/update_status: a software member is enabled (1) or disabled; answers the new status. */
export const updateRouterStatus = defineEndpoint({
  path: '/router/update_status',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ router_name: routerNameField }),
  response: z.object({ status: z.number() }),
});

/**
 * The member add form (spec 3 "Member add form"). A phone is optional; with one, code is the
 * app_bind_phone code sent to it. type 1 binds a free phone; a phone bound to another member answers
 * 401 and the console resends with type 2, which moves the phone to the new member.
 */
export const addRouterBody = z
  .object({
    router_type: routerTypeField,
    username: memberNameField,
    password: memberPasswordField,
    area_code: areaCodeField,
    phone: plainText().default(''),
    code: plainText().default(''),
    note: memberNoteField,
    type: bindTypeField.default(BIND_TYPE.bind),
  })
  .superRefine((v, ctx) => {
    if (!v.phone) return;
    if (v.router_type === ROUTER_TYPE.hardware) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: routerMessages.memberHardwarePhone });
      return;
    }
    const msg = memberPhoneError(v.area_code, v.phone);
    if (msg) ctx.addIssue({ code: 'custom', path: ['phone'], message: msg });
    checkBindCode(v.code, ctx);
  });

export const addRouter = defineEndpoint({
  path: '/router/add',
  method: 'POST',
  access: 'easylink.router.create',
  body: addRouterBody,
  response: noData,
});

/**
 * POST /router/phone, the member's phone dialog (spec 3 §4), as the account's binding dialog:
 * type 1 with a phone and its app_bind_phone code binds it (401 while the member has a phone not yet
 * proven); type 2 with an app_change_phone code sent to the old phone proves it; type 1 with phone
 * and code empty unbinds (403 until proven).
 */
export const routerPhoneBody = z
  .object({
    router_name: routerNameField,
    type: bindTypeField,
    area_code: areaCodeField,
    phone: plainText().default(''),
    code: plainText().default(''),
  })
  .superRefine((v, ctx) => {
    if (isUnbind(v)) return;
    if (v.type === BIND_TYPE.bind) {
      const msg = memberPhoneError(v.area_code, v.phone);
      if (msg) ctx.addIssue({ code: 'custom', path: ['phone'], message: msg });
      checkBindCode(v.code, ctx);
      return;
    }
    // Proving the old phone is the phone change of spec 3 §5: '验证码不能为空', '验证码长度必须为6位'.
    const code = codeField().safeParse(v.code);
    if (!code.success) ctx.addIssue({ code: 'custom', path: ['code'], message: code.error.issues[0]!.message });
  });

export const routerPhone = defineEndpoint({
  path: '/router/phone',
  method: 'POST',
  access: 'easylink.router.edit',
  body: routerPhoneBody,
  response: noData,
});

export const routerPassword = defineEndpoint({
  path: '/router/password',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ router_name: routerNameField, password: memberPasswordField }),
  response: noData,
});

/** One row of a bulk add or bulk delete result table. */
export const batchResultRow = z.object({
  /** The spreadsheet row (2 is the first under the header); 0 in list mode. */
  row: z.number(),
  router_name: z.string(),
  ok: z.boolean(),
  /** Why the row was refused, or the success text. */
  msg: z.string(),
});
export type BatchResultRow = z.infer<typeof batchResultRow>;
export const batchResult = z.object({ success: z.number(), fail: z.number(), rows: z.array(batchResultRow) });
export type BatchResult = z.infer<typeof batchResult>;

/** A bulk import's state: running until its last row is done, failed when it stopped short (an error, or its lease ran out). */
export const IMPORT_STATE = { running: 'running', done: 'done', failed: 'failed' } as const;
export type ImportState = (typeof IMPORT_STATE)[keyof typeof IMPORT_STATE];

/**
 * Where a bulk import is: rows done of the total, of which refused; the result table: while it runs,
 * the rows refused so far (success counts the rows added so far); once it ended, every row.
 */
export const importStatus = z.object({
  id: z.number(),
  state: z.enum([IMPORT_STATE.running, IMPORT_STATE.done, IMPORT_STATE.failed]),
  total: z.number(),
  done: z.number(),
  fail: z.number(),
  /** In spreadsheet order: the refused rows so far while running, every row done once it ended (null from older servers while running). */
  result: batchResult.nullable(),
});
export type ImportStatus = z.infer<typeof importStatus>;

/**
 * POST /router/batch: multipart with one .xlsx 'file' filled from /router/software_template. The
 * file-level checks answer at once; the rows are added by a background job, whose id is answered
 * (follow it with /router/batch_status).
 */
export const batchAddRouters = defineEndpoint({
  path: '/router/batch',
  method: 'POST',
  access: 'easylink.router.create',
  response: z.object({ id: z.number() }),
});

/** GET /router/batch_status: the import with this id, or without one the tenant's latest (null when it has none). */
export const batchStatus = defineEndpoint({
  path: '/router/batch_status',
  method: 'GET',
  access: 'easylink.router.create',
  query: z.object({ id: idField().optional() }),
  response: importStatus.nullable(),
});

export const batchDeleteRouters = defineEndpoint({
  path: '/router/batch_delete',
  method: 'POST',
  access: 'easylink.router.delete',
  body: z.object({
    router_name: z
      .array(routerNameField, { error: routerMessages.selectSoftwareMember })
      .min(1, routerMessages.selectSoftwareMember)
      .max(LIMITS.batchDeleteMax, fmt(routerMessages.fileTooManyRows, { n: LIMITS.batchDeleteMax })),
  }),
  response: batchResult,
});

/** POST /router/batch_delete_file: multipart with one .xlsx 'file' from /router/software_delete_template. */
export const batchDeleteRoutersFile = defineEndpoint({
  path: '/router/batch_delete_file',
  method: 'POST',
  access: 'easylink.router.delete',
  response: batchResult,
});

/** GET /router/export: the software members matching the search, as .xlsx (an envelope when none match). */
export const exportRouters = defineEndpoint({
  path: '/router/export',
  method: 'GET',
  access: 'user',
  query: z.object({ type: routerTypeField.default(ROUTER_TYPE.software), search: searchField }),
  response: xlsxFile,
});

export const softwareTemplate = defineEndpoint({ path: '/router/software_template', method: 'GET', access: 'user', response: xlsxFile });
export const softwareDeleteTemplate = defineEndpoint({
  path: '/router/software_delete_template',
  method: 'GET',
  access: 'user',
  response: xlsxFile,
});

/** The columns of the bulk-add template, in order (the header row). */
export const IMPORT_COLUMNS = ['账号', '密码', '区号', '手机号码', '备注'] as const;
/** The column of the bulk-delete template. */
export const DELETE_COLUMNS = ['账号'] as const;
/**
 * The example row of each template. It sits on a second sheet (IMPORT_SHEETS.example) beside the rules,
 * so a template uploaded as downloaded adds or deletes nothing: only the first sheet is read.
 */
export const IMPORT_EXAMPLE = ['zhangsan01', 'abc123456', '86', '13800000000', '研发部'] as const;
export const DELETE_EXAMPLE = ['zhangsan01'] as const;
/**
 * The columns GET /router/export adds after the import's own (issue 31): an export is an import file.
 * The import reads past them; 密码 stays empty in an export (no password leaves the server).
 */
export const EXPORT_EXTRA_COLUMNS = ['状态', '在线状态', '系统', '版本', '创建时间'] as const;
/** The columns of GET /router/export, in order: the import template's, then EXPORT_EXTRA_COLUMNS. */
export const EXPORT_COLUMNS = [...IMPORT_COLUMNS, ...EXPORT_EXTRA_COLUMNS] as const;
/** The templates' sheets: the first is filled in and read; the second shows an example row. */
export const IMPORT_SHEETS = { data: '成员', example: '示例（不会导入）' } as const;
/** Names of the downloaded files (the export adds '-yyyyMMdd'), without '.xlsx'. */
export const MEMBER_FILES = { export: '成员列表', importTemplate: '软件成员导入模板', deleteTemplate: '软件成员删除模板' } as const;

/**
 * Import rules of spec 3 §5: account 3–18 letters or digits, password 6–18 letters or digits (or
 * empty: the member gets no password, docs/decisions.md issue 31), note ≤ 20 without special characters.
 */
export const IMPORT_ACCOUNT_PATTERN = new RegExp(`^[A-Za-z0-9]{${LIMITS.importAccountMin},${LIMITS.memberNameMax}}$`);
export const importAccountField = requiredString(routerMessages.memberAccountRequired).regex(IMPORT_ACCOUNT_PATTERN, routerMessages.importAccountRule);
export const IMPORT_PASSWORD_PATTERN = new RegExp(`^[A-Za-z0-9]{${LIMITS.memberPasswordMin},${LIMITS.memberPasswordMax}}$`);
/** Chinese characters, letters, digits, '_', '.', '-' and spaces (length checked against LIMITS.importNoteMax). */
export const IMPORT_NOTE_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9_.\- ]*$/;
