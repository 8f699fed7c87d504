import { CODE, sendCode, type SendType, type VerifyType } from '@hublink/contract';
import { call } from './client';

/**
 * Sends a code through /verify/send_code; resolves true when it went out. `target` returns the
 * destination or null when the form's own checks of it failed (they show their messages).
 */
export async function sendCodeTo(type: SendType, verify_type: VerifyType, target: () => Promise<string | null>): Promise<boolean> {
  const value = await target();
  if (!value) return false;
  const env = await call(sendCode, { body: { send_type: type, send_value: value, verify_type } });
  return env.code === CODE.ok;
}
