import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import {
  captchaField,
  codeField,
  emailValueField,
  loginPasswordField,
  nicknameField,
  passwordField,
  phoneValueField,
  plainText,
  registerCodeField,
  requiredString,
  sendTypeField,
  usernameField,
} from './fields';
import { BM } from './messages';
import { roleAuth } from './role';

/** The user message of spec 1 §3. */
export const userMessage = z.object({
  nickname: z.string(),
  username: z.string(),
  ram: z.union([z.literal(0), z.literal(1)]),
  user_phone: z.string(),
  user_email: z.string(),
  message_count: z.number(),
  sign: z.string(),
  config: z.object({ software_auth_source: z.number() }),
  auth: z.object({ quagga: z.number(), quagga_advanced: z.number(), default_route: z.number() }),
  /** A sub-account's role (what the console offers it); null for a main account. */
  role: roleAuth.nullable(),
});
export type UserMessage = z.infer<typeof userMessage>;

export const loginResult = z.object({
  access_token: z.string(),
  token_expire_time: z.number(),
  user: userMessage,
});
export type LoginResult = z.infer<typeof loginResult>;

export const getCaptcha = defineEndpoint({
  path: '/verify/code',
  method: 'GET',
  access: 'public',
  response: z.object({ content: z.string(), uniqid: z.string() }),
});

const loginBody = z.object({
  username: requiredString(BM.usernameRequired),
  password: loginPasswordField,
  code: captchaField,
  uniqid: requiredString(BM.captchaWrong),
});
export type LoginBody = z.infer<typeof loginBody>;

export const login = defineEndpoint({
  path: '/login/authorization',
  method: 'POST',
  access: 'public',
  body: loginBody,
  response: loginResult,
});

/** Sub-account login: username is 'name@domain'. */
export const loginRam = defineEndpoint({
  path: '/login/ram',
  method: 'POST',
  access: 'public',
  body: loginBody,
  response: loginResult,
});

/** Takes the current (possibly just expired) token from the Authorization header. */
export const refreshToken = defineEndpoint({
  path: '/login/refresh',
  method: 'POST',
  access: 'public',
  response: loginResult,
});

export const logout = defineEndpoint({ path: '/login/logout', method: 'POST', access: 'user', endsChain: true, response: noData });

export const accountInfo = defineEndpoint({
  path: '/account/info',
  method: 'GET',
  access: 'user',
  response: userMessage,
});

/** A send_value checked by its send_type. */
const sendTarget = z
  .object({ send_type: sendTypeField, send_value: plainText().default('') })
  .superRefine((v, ctx) => {
    const field = v.send_type === 'phone' ? phoneValueField : emailValueField;
    const r = field.safeParse(v.send_value);
    if (!r.success) ctx.addIssue({ code: 'custom', path: ['send_value'], message: r.error.issues[0]!.message });
  });

export const sendRegisterCode = defineEndpoint({
  path: '/verify/register',
  method: 'POST',
  access: 'public',
  body: sendTarget,
  response: noData,
});

export const registerBody = z
  .object({
    nickname: nicknameField,
    username: usernameField,
    password: passwordField(),
    newPassword: passwordField(BM.confirmPasswordRequired),
    code: registerCodeField,
    type: sendTypeField,
    // Checked below by type, so a missing email says '邮箱号不能为空' and a missing phone '手机号码不能为空'.
    verify: plainText().default(''),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.newPassword) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: BM.passwordMismatch });
    }
    const field = v.type === 'phone' ? phoneValueField : emailValueField;
    const r = field.safeParse(v.verify);
    if (!r.success) ctx.addIssue({ code: 'custom', path: ['verify'], message: r.error.issues[0]!.message });
  });
export type RegisterBody = z.infer<typeof registerBody>;

export const register = defineEndpoint({
  path: '/account/register',
  method: 'POST',
  access: 'public',
  body: registerBody,
  response: noData,
});

// Password recovery (spec 1 §2.5): the captcha's uniqid names the recovery from step 1 on.
export const findPassword = defineEndpoint({
  path: '/verify/find_password',
  method: 'POST',
  access: 'public',
  body: z.object({
    username: requiredString(BM.usernameRequired),
    img_code: captchaField,
    uniqid: requiredString(BM.captchaWrong),
  }),
  response: z.object({ phone: z.string().optional(), email: z.string().optional() }),
});

export const findPasswordCode = defineEndpoint({
  path: '/verify/find_password_code',
  method: 'POST',
  access: 'public',
  body: z.object({ uniqid: requiredString(BM.recoveryExpired), send_type: sendTypeField }),
  response: noData,
});

export const authenticate = defineEndpoint({
  path: '/verify/authentication',
  method: 'POST',
  access: 'public',
  body: z.object({
    code: codeField(BM.identityCodeRequired),
    uniqid: requiredString(BM.recoveryExpired),
    send_type: sendTypeField,
  }),
  response: noData,
});

export const resetPasswordBody = z
  .object({
    password: passwordField(BM.newPasswordRequired),
    reset_password: passwordField(BM.repeatPasswordRequired),
    uniqid: requiredString(BM.recoveryExpired),
  })
  .refine((v) => v.password === v.reset_password, { path: ['reset_password'], message: BM.passwordMismatch });

export const resetPassword = defineEndpoint({
  path: '/verify/reset_password',
  method: 'POST',
  access: 'public',
  body: resetPasswordBody,
  response: noData,
});

/** Purposes a code is sent for; a code only serves the purpose it was sent for. */
export const VERIFY_TYPES = [
  'verify_phone',
  'verify_email',
  'bind_phone',
  'bind_email',
  'edit_phone',
  'edit_email',
  'edit_password',
  'app_change_phone',
  'app_bind_phone',
] as const;
export const verifyTypeField = z.enum(VERIFY_TYPES, { error: '验证类型错误' });
export type VerifyType = z.infer<typeof verifyTypeField>;

export const sendCode = defineEndpoint({
  path: '/verify/send_code',
  method: 'POST',
  access: 'user',
  body: z.intersection(sendTarget, z.object({ verify_type: verifyTypeField })),
  response: noData,
});

/** Checks a code sent to the caller's own bound phone or email. */
export const verifyCode = defineEndpoint({
  path: '/verify/verify',
  method: 'POST',
  access: 'user',
  body: z.object({ send_type: sendTypeField, verify_type: verifyTypeField, code: codeField() }),
  response: noData,
});
