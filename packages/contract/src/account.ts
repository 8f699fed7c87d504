import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { codeField, dateField, EMAIL_PATTERN, emailValueField, MAINLAND_MOBILE_PATTERN, NICKNAME_PATTERN, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, accountMessages, fmt } from './messages';
import { dialogPassword } from './ram';

/** Industry codes of spec 1 §3 with their labels, in the spec's order (I23 does not exist). */
export const INDUSTRIES = [
  { value: 'I1', label: '政府/非营利组织' },
  { value: 'I2', label: '信息/咨询' },
  { value: 'I3', label: '社会服务' },
  { value: 'I4', label: '商业团体/纳税人' },
  { value: 'I5', label: '体育/娱乐' },
  { value: 'I6', label: '交通运输' },
  { value: 'I7', label: '广告/媒体' },
  { value: 'I8', label: '商业代理' },
  { value: 'I9', label: '教育/培训' },
  { value: 'I10', label: '房地产' },
  { value: 'I11', label: '邮政' },
  { value: 'I12', label: '互联网' },
  { value: 'I13', label: '制造业' },
  { value: 'I14', label: '能源/环保' },
  { value: 'I15', label: '建筑业' },
  { value: 'I16', label: '农林牧渔' },
  { value: 'I17', label: '采矿业' },
  { value: 'I18', label: '其他' },
  { value: 'I19', label: '餐饮/食品' },
  { value: 'I20', label: '医药/医疗' },
  { value: 'I21', label: '电子/通信' },
  { value: 'I22', label: '服务业' },
  { value: 'I24', label: '金融' },
] as const;
export type Industry = (typeof INDUSTRIES)[number]['value'];
const INDUSTRY_CODES = new Set<string>(INDUSTRIES.map((i) => i.value));

/** The account object of GET /account/data ('' for a field never set). */
export const accountData = z.object({
  username: z.string(),
  nickname: z.string(),
  birthday: z.string(),
  industry: z.string(),
  occupation: z.string(),
  /** '+86 13800000000' or ''. */
  phone: z.string(),
  email: z.string(),
  /** The software member suffix. */
  sign: z.string(),
  create_time: z.string(),
});
export type AccountData = z.infer<typeof accountData>;

export const getAccountData = defineEndpoint({
  path: '/account/data',
  method: 'GET',
  access: 'main',
  response: accountData,
});

const DAY_MS = 86_400_000;

/** The latest birthday the form accepts today: LIMITS.birthdayMinAgeDays before now, as 'yyyy-MM-dd'. */
export const latestBirthday = (now = Date.now()) => new Date(now - LIMITS.birthdayMinAgeDays * DAY_MS).toISOString().slice(0, 10);

export const birthdayField = requiredString(accountMessages.birthdayRequired)
  .pipe(dateField(accountMessages.birthdayInvalid, accountMessages.birthdayInvalid))
  .refine((v) => v <= latestBirthday(), fmt(accountMessages.birthdayTooLate, { n: LIMITS.birthdayMinAgeDays }));

export const editDataBody = z.object({
  nickname: requiredString(BM.nicknameRequired)
    .max(LIMITS.nicknameMax, accountMessages.accountNicknameMax)
    .regex(NICKNAME_PATTERN, BM.nicknameChars),
  birthday: birthdayField,
  industry: requiredString(accountMessages.industryRequired).refine((v) => INDUSTRY_CODES.has(v), accountMessages.industryInvalid),
  occupation: requiredString(accountMessages.occupationRequired).max(LIMITS.occupationMax, accountMessages.occupationMax),
});
export type EditDataBody = z.infer<typeof editDataBody>;

export const editData = defineEndpoint({
  path: '/account/edit_data',
  method: 'POST',
  access: 'main',
  body: editDataBody,
  response: noData,
});

/** Step 2 of the password wizard; the identity proof of /verify/verify is required (step 1). */
export const editPasswordBody = z
  .object({
    new_password: dialogPassword(BM.newPasswordRequired),
    reset_password: dialogPassword(BM.repeatPasswordRequired),
  })
  .refine((v) => v.new_password === v.reset_password, { path: ['reset_password'], message: BM.passwordMismatch });

export const editPassword = defineEndpoint({
  path: '/account/edit_password',
  method: 'POST',
  access: 'main',
  body: editPasswordBody,
  response: noData,
});

export const editEmailBody = z.object({
  email: emailValueField,
  code: codeField(),
});

/** Step 2 of the email wizard: the new email and the edit_email code sent to it. */
export const editEmail = defineEndpoint({
  path: '/account/edit_email',
  method: 'POST',
  access: 'main',
  body: editEmailBody,
  response: noData,
});

const AREA_CODE_PATTERN = /^\d{1,4}$/;
const OTHER_MOBILE_PATTERN = /^\d{4,15}$/;

/**
 * The first rule a mobile number (without its dial code) breaks, or null: mainland numbers (area 86)
 * match 1[3-8] plus 9 digits, others are 4 to 15 digits; both say '请输入正确的手机号码'.
 */
export function mobileError(area: string, phone: string, required: string = BM.phoneRequired): string | null {
  const a = area.trim().replace(/^\+/, '');
  const p = phone.trim();
  if (!p) return required;
  if (!AREA_CODE_PATTERN.test(a)) return accountMessages.areaCodeInvalid;
  const pattern = a === LIMITS.defaultAreaCode ? MAINLAND_MOBILE_PATTERN : OTHER_MOBILE_PATTERN;
  return pattern.test(p) ? null : accountMessages.mobileInvalid;
}

export const areaCodeField = plainText(accountMessages.areaCodeInvalid).default(LIMITS.defaultAreaCode);

export const editPhoneBody = z
  .object({
    area_code: areaCodeField,
    phone: plainText(BM.phoneRequired),
    code: codeField(),
  })
  .superRefine((v, ctx) => {
    const msg = mobileError(v.area_code, v.phone);
    if (msg) ctx.addIssue({ code: 'custom', path: ['phone'], message: msg });
  });

/** Step 2 of the phone wizard: the new phone and the edit_phone code sent to it. */
export const editPhone = defineEndpoint({
  path: '/account/edit_phone',
  method: 'POST',
  access: 'main',
  body: editPhoneBody,
  response: noData,
});

/** Binding dialog types (spec 1 §4): 1 binds (or, with empty values, unbinds); 2 proves the old value. */
export const BIND_TYPE = { bind: 1, verify: 2 } as const;
export const bindTypeField = z.union([z.literal(BIND_TYPE.bind), z.literal(BIND_TYPE.verify)], { error: accountMessages.bindTypeInvalid });

/** The binding dialog's code: '请输入验证码', then 6 characters. */
export const bindCodeField = requiredString(accountMessages.bindCodeRequired).length(LIMITS.codeLength, BM.codeLength);

export function checkBindCode(code: string, ctx: z.RefinementCtx) {
  const r = bindCodeField.safeParse(code);
  if (!r.success) ctx.addIssue({ code: 'custom', path: ['code'], message: r.error.issues[0]!.message });
}

/** A bind with every value empty is an unbind. */
export const isUnbind = (v: { type: number; code: string; phone?: string; email?: string }) =>
  v.type === BIND_TYPE.bind && !v.code && !(v.phone ?? v.email ?? '');

export const defaultPhoneBody = z
  .object({
    type: bindTypeField,
    area_code: areaCodeField,
    phone: plainText().default(''),
    code: plainText().default(''),
  })
  .superRefine((v, ctx) => {
    if (isUnbind(v)) return;
    if (v.type === BIND_TYPE.bind) {
      const msg = mobileError(v.area_code, v.phone, accountMessages.bindPhoneRequired);
      if (msg) ctx.addIssue({ code: 'custom', path: ['phone'], message: msg });
    }
    checkBindCode(v.code, ctx);
  });
export type DefaultPhoneBody = z.infer<typeof defaultPhoneBody>;

/**
 * The phone binding dialog. type 1 with a phone and its bind_phone code binds it (an account that
 * already has one answers 401 until the old phone is proven); type 2 with a verify_phone code proves
 * the old phone; type 1 with everything empty unbinds (403 until proven).
 */
export const defaultPhone = defineEndpoint({
  path: '/account/default_phone',
  method: 'POST',
  access: 'main',
  body: defaultPhoneBody,
  response: noData,
});

export const bindEmailField = requiredString(accountMessages.bindEmailRequired)
  .max(LIMITS.emailMax, BM.emailInvalid)
  .regex(EMAIL_PATTERN, BM.emailInvalid);

export const defaultEmailBody = z
  .object({
    type: bindTypeField,
    email: plainText().default(''),
    code: plainText().default(''),
  })
  .superRefine((v, ctx) => {
    if (isUnbind(v)) return;
    if (v.type === BIND_TYPE.bind) {
      const r = bindEmailField.safeParse(v.email);
      if (!r.success) ctx.addIssue({ code: 'custom', path: ['email'], message: r.error.issues[0]!.message });
    }
    checkBindCode(v.code, ctx);
  });
export type DefaultEmailBody = z.infer<typeof defaultEmailBody>;

/** The email binding dialog, as defaultPhone with bind_email and verify_email codes. */
export const defaultEmail = defineEndpoint({
  path: '/account/default_email',
  method: 'POST',
  access: 'main',
  body: defaultEmailBody,
  response: noData,
});

export const SIGN_PATTERN = /^[A-Za-z0-9]+$/;
export const signField = requiredString(accountMessages.signRequired)
  .min(LIMITS.signMin, accountMessages.signInvalid)
  .max(LIMITS.signMax, accountMessages.signInvalid)
  .regex(SIGN_PATTERN, accountMessages.signInvalid);

/** The software member suffix (members log in as username@sign); stored lowercase, unique. */
export const editSign = defineEndpoint({
  path: '/account/edit_sign',
  method: 'POST',
  access: 'main',
  body: z.object({ sign: signField }),
  response: noData,
});

/** Confirms an emailed validation link (/validate/email?s=TOKEN). */
export const validateEmail = defineEndpoint({
  path: '/contacts/validate_email',
  method: 'POST',
  access: 'public',
  body: z.object({ s: requiredString(accountMessages.validateLinkInvalid).max(128, accountMessages.validateLinkInvalid) }),
  response: noData,
});
