import { z } from 'zod';
import { LIMITS } from './limits';
import { BM } from './messages';

// Control characters and lone surrogates: no field stores, shows or searches them. A lone surrogate
// is half a character: UTF-8 (and so PostgreSQL) cannot hold it, and NUL ends strings in SQLite's FTS5.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- as above, but tab, line feed and carriage return
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** What a search keeps of the typed text: control characters and lone surrogates are dropped. */
export const searchableText = (v: string) => v.replace(CONTROLS, '').replace(LONE_SURROGATES, '');

/** Trimmed text refused with BM.textInvalidChars when it holds one of `controls` or a lone surrogate. */
const textWithout = (controls: RegExp) => (error?: string) =>
  z
    .string(error === undefined ? undefined : { error })
    .trim()
    .refine((v) => !controls.test(v) && !LONE_SURROGATE.test(v), BM.textInvalidChars);

/**
 * Free text of a request (names, notes, numbers and codes as typed), trimmed; a C0 control character,
 * DEL or a lone surrogate gets BM.textInvalidChars. Every string a request carries is one of these,
 * but passwords (never stored or shown as text) and searches (searchField).
 */
export const plainText = textWithout(CONTROL);

/** Text of several lines (the HTML of a message or an announcement): plainText, but tabs and line breaks are kept. */
export const multilineText = textWithout(CONTROL_BUT_LINES);

/** A required string: missing, null or blank gives `required`. */
export const requiredString = (required: string) => plainText(required).min(1, required);

export const NICKNAME_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9]+$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9]+$/;
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
export const MAINLAND_MOBILE_PATTERN = /^1[3-8]\d{9}$/;
/** A phone as the API carries it: '+{area} {number}'. */
export const PHONE_VALUE_PATTERN = /^\+(\d{1,4}) (\d{4,15})$/;

export const captchaField = requiredString(BM.captchaRequired)
  .length(LIMITS.captchaLength, BM.captchaLength)
  .regex(/^[A-Za-z0-9]+$/, BM.captchaChars);

export const loginPasswordField = z
  .string({ error: BM.passwordRequired })
  .min(1, BM.passwordRequired)
  .min(LIMITS.passwordMin, BM.passwordLength)
  .max(LIMITS.passwordMax, BM.passwordLength);

export const nicknameField = requiredString(BM.nicknameRequired)
  .min(LIMITS.nicknameMin, BM.nicknameLength)
  .max(LIMITS.nicknameMax, BM.nicknameLength)
  .regex(NICKNAME_PATTERN, BM.nicknameChars);

export const usernameField = requiredString(BM.usernameRequired)
  .min(LIMITS.usernameMin, BM.usernameLength)
  .max(LIMITS.usernameMax, BM.usernameLength)
  .regex(USERNAME_PATTERN, BM.usernameChars);

/** A new password (registration, reset, change). */
export const passwordField = (required: string = BM.passwordRequired) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(LIMITS.passwordMin, BM.passwordLength)
    .max(LIMITS.passwordMax, BM.passwordLength);

/** The 6-digit code of registration (spec: at least 6, '请输入验证码'). */
export const registerCodeField = requiredString(BM.codeRequired)
  .min(LIMITS.codeLength, BM.codeMin)
  .max(LIMITS.codeLength, BM.codeMin);

/** The generic verification code (spec 1 §5: '验证码不能为空', '验证码长度必须为6位'). */
export const codeField = (required: string = BM.codeRequired) =>
  requiredString(required).length(LIMITS.codeLength, BM.codeLength);

export const emailValueField = requiredString(BM.emailRequired)
  .min(LIMITS.emailMin, BM.emailInvalid)
  .max(LIMITS.emailMax, BM.emailInvalid)
  .regex(EMAIL_PATTERN, BM.emailInvalid);

/** '+86 13800000000' with the phone's own rules. */
export const phoneValueField = requiredString(BM.phoneRequired).refine(
  (v) => PHONE_VALUE_PATTERN.test(v),
  BM.phoneMin,
);

export const sendTypeField = z.enum(['phone', 'email'], { error: '请选择验证方式' });
export type SendType = z.infer<typeof sendTypeField>;

/** Join the area code and the number as the API carries a phone. */
export const phoneValue = (area: string, phone: string) => `+${area.replace(/^\+/, '')} ${phone.trim()}`;

/**
 * An integer as a request carries it: a JSON number, or its decimal digits as a string (query strings
 * carry nothing else). true, [1], '1e3', ' 1' and '0x1' are not numbers here; anything outside
 * [min, max] or not whole gets `message` too.
 */
export const integerField = (message: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,16}$/).transform(Number)], { error: message })
    .pipe(z.number().int(message).min(min, message).max(max, message));

/** A row id: a positive integer within the 32-bit id columns, or its decimal string. */
export const idField = (message: string = BM.validationFailed) => integerField(message, 1, LIMITS.maxId);

/** The search box: what it cannot search for (control characters, lone surrogates) is dropped. */
export const searchField = z.string().overwrite(searchableText).trim().max(LIMITS.searchMax, BM.searchTooLong).optional();

export const pageQuery = z.object({
  page: integerField(BM.pageInvalid, 1, LIMITS.maxId).default(1),
  limit: integerField(BM.limitInvalid, 1, LIMITS.maxPageLimit).default(LIMITS.pageSize),
  search: searchField,
});

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** 'yyyy-MM-dd' naming a day that exists (no 2025-02-30, no month 13). */
export const isCalendarDate = (v: string) => {
  if (!DATE_PATTERN.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/**
 * The one date field of the API: 'yyyy-MM-dd', a real calendar day (`invalid` otherwise), between
 * LIMITS.dateMin and LIMITS.dateMax (`outOfRange` otherwise), so whatever a service computes from it
 * (the next day, a zone's midnight) stays a valid date.
 */
export const dateField = (invalid: string, outOfRange: string = BM.dateOutOfRange) =>
  z
    .string({ error: invalid })
    .trim()
    .refine(isCalendarDate, { message: invalid, abort: true })
    .refine((v) => v >= LIMITS.dateMin && v <= LIMITS.dateMax, outOfRange);

/** A range of dates (start_time, end_time; either may be open) whose start is not after its end. */
export const dateRangeInOrder = (q: { start_time?: string; end_time?: string }) => !q.start_time || !q.end_time || q.start_time <= q.end_time;
