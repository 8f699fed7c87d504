import { z } from 'zod';
import { LIMITS } from './limits';
import { M } from './messages';

/** A required string: missing, null or blank gives `required`. */
export const requiredString = (required: string) =>
  z.string({ error: required }).trim().min(1, required);

export const NICKNAME_PATTERN = /^[\u4e00-\u9fa5A-Za-z0-9]+$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9]+$/;
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
export const MAINLAND_MOBILE_PATTERN = /^1[3-8]\d{9}$/;
/** A phone as the API carries it: '+{area} {number}'. */
export const PHONE_VALUE_PATTERN = /^\+(\d{1,4}) (\d{4,15})$/;

export const captchaField = requiredString(M.captchaRequired)
  .length(LIMITS.captchaLength, M.captchaLength)
  .regex(/^[A-Za-z0-9]+$/, M.captchaChars);

export const loginPasswordField = z
  .string({ error: M.passwordRequired })
  .min(1, M.passwordRequired)
  .min(LIMITS.passwordMin, M.passwordLength)
  .max(LIMITS.passwordMax, M.passwordLength);

export const nicknameField = requiredString(M.nicknameRequired)
  .min(LIMITS.nicknameMin, M.nicknameLength)
  .max(LIMITS.nicknameMax, M.nicknameLength)
  .regex(NICKNAME_PATTERN, M.nicknameChars);

export const usernameField = requiredString(M.usernameRequired)
  .min(LIMITS.usernameMin, M.usernameLength)
  .max(LIMITS.usernameMax, M.usernameLength)
  .regex(USERNAME_PATTERN, M.usernameChars);

/** A new password (registration, reset, change). */
export const passwordField = (required: string = M.passwordRequired) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(LIMITS.passwordMin, M.passwordLength)
    .max(LIMITS.passwordMax, M.passwordLength);

/** The 6-digit code of registration (spec: at least 6, '请输入验证码'). */
export const registerCodeField = requiredString(M.codeRequired)
  .min(LIMITS.codeLength, M.codeMin)
  .max(LIMITS.codeLength, M.codeMin);

/** The generic verification code (spec 1 §5: '验证码不能为空', '验证码长度必须为6位'). */
export const codeField = (required: string = M.codeRequired) =>
  requiredString(required).length(LIMITS.codeLength, M.codeLength);

export const emailValueField = requiredString(M.emailRequired)
  .min(LIMITS.emailMin, M.emailInvalid)
  .max(LIMITS.emailMax, M.emailInvalid)
  .regex(EMAIL_PATTERN, M.emailInvalid);

/** '+86 13800000000' with the phone's own rules. */
export const phoneValueField = requiredString(M.phoneRequired).refine(
  (v) => PHONE_VALUE_PATTERN.test(v),
  M.phoneMin,
);

export const sendTypeField = z.enum(['phone', 'email'], { error: '请选择验证方式' });
export type SendType = z.infer<typeof sendTypeField>;

/** Join the area code and the number as the API carries a phone. */
export const phoneValue = (area: string, phone: string) => `+${area.replace(/^\+/, '')} ${phone.trim()}`;

/** A row id as the API takes it (query strings too); ids beyond the 32-bit columns get `message`. */
export const idField = (message: string = M.validationFailed) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(LIMITS.maxId, message);

export const pageQuery = z.object({
  page: z.coerce.number({ error: M.pageInvalid }).int(M.pageInvalid).min(1, M.pageInvalid).default(1),
  limit: z.coerce
    .number({ error: M.limitInvalid })
    .int(M.limitInvalid)
    .min(1, M.limitInvalid)
    .max(LIMITS.maxPageLimit, M.limitInvalid)
    .default(LIMITS.pageSize),
  search: z.string().trim().max(LIMITS.searchMax, M.searchTooLong).optional(),
});
