import { sendCode, type SendType } from '@hublink/contract';
import type { TestApp } from './helpers';

/** Sends a code through /verify/send_code (skipping the resend cooldown) and returns it. */
export async function codeFor(t: TestApp, token: string, type: SendType, value: string, verify_type: string): Promise<string> {
  const destination = type === 'email' ? value.toLowerCase() : value;
  await t.ageCodes(destination);
  const res = await t.call(sendCode, { token, body: { send_type: type, send_value: value, verify_type }, ip: t.nextIp() });
  if (res.code !== 200) throw new Error(`send_code ${verify_type}: ${res.msg}`);
  return t.lastCode(destination);
}
