import { verifyCode, type SendType } from '@hublink/contract';
import { codeFor } from '../../../test/codes';
import { newAccount, type TestApp } from '../../../test/helpers';
import { proofKey } from '../../domain/proofs';

// Shared by the account module's tests: fresh addresses, codes through the real calls, proofs.

let seq = 0;
const stamp = () => `${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
/** A mainland mobile number without its dial code. */
export const freshMobile = () => `136${stamp()}`;
export const freshPhone = () => `+86 ${freshMobile()}`;
export const freshEmail = () => `acct${stamp()}@example.com`;

/** A main account with a phone, an email, or (both: true) both bound. */
export async function accountWith(t: TestApp, opts: { phone?: boolean; email?: boolean } = { phone: true }) {
  const phone = freshPhone();
  const email = freshEmail();
  const a = opts.phone ? await newAccount(t, { phone }) : await newAccount(t, { email });
  if (opts.phone && opts.email) {
    await t.db.updateTable('account').set({ email }).where('id', '=', a.account.id).execute();
  }
  return { ...a, phone: opts.phone ? phone : null, email: opts.email ? email : null };
}

/** Leaves the identity proof of /verify/verify for the account's own phone or email. */
export async function prove(t: TestApp, token: string, type: SendType, value: string) {
  const verify_type = type === 'phone' ? 'verify_phone' : 'verify_email';
  const code = await codeFor(t, token, type, value, verify_type);
  const res = await t.call(verifyCode, { token, body: { send_type: type, verify_type, code }, ip: t.nextIp() });
  if (res.code !== 200) throw new Error(`verify: ${res.msg}`);
}

/** A snapshot where a counted wrong try is not a change (the try counter of codes is reset). */
export async function snapshotIgnoringTries(t: TestApp) {
  const s = await t.snapshot();
  return { ...s, verification_code: (s.verification_code as { attempts: number }[]).map((r) => ({ ...r, attempts: 0 })) };
}

export const proofOf = (t: TestApp, tenantId: number, type: 'verify_phone' | 'verify_email') => t.ctx.store.get(proofKey(tenantId, type));
