import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { dateField, dateRangeInOrder, idField, pageQuery, passwordField, requiredString, USERNAME_PATTERN } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, ramMessages } from './messages';

/** A password of the password-change dialogs (spec 1 §5: required, '必须6到18位'). */
export const dialogPassword = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(LIMITS.passwordMin, BM.passwordLengthShort)
    .max(LIMITS.passwordMax, BM.passwordLengthShort);

/** POST /ram/password: a sub-account changes its own password (spec 1 §7); its sessions end. */
export const changeRamPassword = defineEndpoint({
  path: '/ram/password',
  method: 'POST',
  access: 'user',
  body: z
    .object({
      old_password: dialogPassword(BM.oldPasswordRequired),
      password: dialogPassword(BM.newPasswordRequired),
      reset_password: dialogPassword(BM.repeatPasswordRequired),
    })
    .refine((v) => v.password === v.reset_password, { path: ['reset_password'], message: BM.passwordMismatch }),
  response: noData,
});

/** The id of a record in a query or body (a sub-account, a role). */
export const recordId = idField();

const ramNickname = requiredString(ramMessages.ramNicknameRequired).max(LIMITS.nicknameMax, fmt(ramMessages.ramNicknameTooLong, { n: LIMITS.nicknameMax }));
const ramUsername = requiredString(ramMessages.ramUsernameRequired)
  .max(LIMITS.ramUsernameMax, fmt(ramMessages.ramUsernameRule, { n: LIMITS.ramUsernameMax }))
  .regex(USERNAME_PATTERN, fmt(ramMessages.ramUsernameRule, { n: LIMITS.ramUsernameMax }));
const ramRoleId = idField(ramMessages.ramRoleRequired);

/** A sub-account as the list and info calls give it (spec 1 §3); the password is write-only. */
export const ramItem = z.object({
  id: z.number(),
  /** The name part; the sub-account signs in as username@domain. */
  username: z.string(),
  nickname: z.string(),
  role_id: z.number(),
  role_name: z.string(),
  create_time: z.string(),
  /** null until the first sign-in. */
  login_time: z.string().nullable(),
});
export type RamItem = z.infer<typeof ramItem>;

/** GET /ram/domain: the tenant's domain, the suffix of its sub-accounts' sign-in names. */
export const ramDomain = defineEndpoint({
  path: '/ram/domain',
  method: 'GET',
  access: 'main',
  response: z.object({ domain: z.string() }),
});

/** GET /ram/quantity: sub-accounts in use and the tenant's quota. */
export const ramQuantity = defineEndpoint({
  path: '/ram/quantity',
  method: 'GET',
  access: 'main',
  response: z.object({ count: z.number(), max: z.number() }),
});

export const ramInfo = defineEndpoint({
  path: '/ram/info',
  method: 'GET',
  access: 'main',
  query: z.object({ id: recordId }),
  response: ramItem,
});

/** GET /ram/lists: search matches the username or the nickname. */
export const listRam = defineEndpoint({
  path: '/ram/lists',
  method: 'GET',
  access: 'main',
  query: pageQuery,
  response: z.array(ramItem),
  paged: true,
});

export const createRam = defineEndpoint({
  path: '/ram/create',
  method: 'POST',
  access: 'main',
  body: z.object({
    role_id: ramRoleId,
    nickname: ramNickname,
    username: ramUsername,
    password: passwordField(ramMessages.ramPasswordRequired),
  }),
  response: z.object({ id: z.number() }),
});

/** POST /ram/edit: the username cannot change; an empty or missing password keeps the old one. */
export const editRam = defineEndpoint({
  path: '/ram/edit',
  method: 'POST',
  access: 'main',
  body: z.object({
    id: recordId,
    role_id: ramRoleId,
    nickname: ramNickname,
    password: passwordField(ramMessages.ramPasswordRequired).optional().or(z.literal('')),
  }),
  response: noData,
});

/** POST /ram/delete: the sub-account's sessions end with it. */
export const deleteRam = defineEndpoint({
  path: '/ram/delete',
  method: 'POST',
  access: 'main',
  body: z.object({ id: recordId }),
  response: noData,
});

export const ramLogItem = z.object({
  id: z.number(),
  /** The area of the call (its first path segment, e.g. 'network'). */
  mode: z.string(),
  /** The call within the area (the rest of its path, e.g. 'create'). */
  action: z.string(),
  /** The answer's msg. */
  message: z.string(),
  create_time: z.string(),
});
export type RamLogItem = z.infer<typeof ramLogItem>;

/** GET /ram/log: a sub-account's operation log, newest first; the dates are whole days, both included. */
export const ramLog = defineEndpoint({
  path: '/ram/log',
  method: 'GET',
  access: 'main',
  query: pageQuery
    .extend({
      ram_id: recordId,
      start_time: dateField(ramMessages.logDateInvalid).optional(),
      end_time: dateField(ramMessages.logDateInvalid).optional(),
    })
    .refine(dateRangeInOrder, { path: ['end_time'], message: ramMessages.logRangeInvalid }),
  response: z.array(ramLogItem),
  paged: true,
});
