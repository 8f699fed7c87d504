import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { LIMITS } from './limits';
import { M } from './messages';

/** A password of the password-change dialogs (spec 1 §5: required, '必须6到18位'). */
export const dialogPassword = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(LIMITS.passwordMin, M.passwordLengthShort)
    .max(LIMITS.passwordMax, M.passwordLengthShort);

/** POST /ram/password: a sub-account changes its own password (spec 1 §7); its sessions end. */
export const changeRamPassword = defineEndpoint({
  path: '/ram/password',
  method: 'POST',
  access: 'user',
  body: z
    .object({
      old_password: dialogPassword(M.oldPasswordRequired),
      password: dialogPassword(M.newPasswordRequired),
      reset_password: dialogPassword(M.repeatPasswordRequired),
    })
    .refine((v) => v.password === v.reset_password, { path: ['reset_password'], message: M.passwordMismatch }),
});
