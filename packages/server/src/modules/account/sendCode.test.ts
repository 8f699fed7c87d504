import { CODE, M, sendCode } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newRamAccount, signIn } from '../../../test/helpers';
import { accountWith, freshEmail, freshPhone } from './fixtures';

// /verify/send_code for the account module's purposes: codes to a new phone or email of the account.

describeEachDatabase('POST /verify/send_code for bindings and changes', (t) => {
  const send = (token: string, body: Record<string, unknown>) => t().call(sendCode, { token, body, ip: t().nextIp() });

  it('sends nothing to a phone or email another account has bound', async () => {
    const a = await accountWith(t());
    const b = await accountWith(t(), { phone: true, email: true });
    const before = await t().snapshot();
    for (const verify_type of ['bind_phone', 'edit_phone']) {
      expect(await send(a.token, { send_type: 'phone', send_value: b.phone, verify_type }), verify_type).toMatchObject({ code: 422, msg: M.phoneBoundElsewhere });
    }
    for (const verify_type of ['bind_email', 'edit_email']) {
      expect(await send(a.token, { send_type: 'email', send_value: b.email!.toUpperCase(), verify_type }), verify_type).toMatchObject({
        code: 422,
        msg: M.emailBoundElsewhere,
      });
    }
    expect(await t().snapshot()).toEqual(before);
  });

  it("sends to the account's own current phone (the change is refused later as unchanged)", async () => {
    const a = await accountWith(t());
    expect((await send(a.token, { send_type: 'phone', send_value: a.phone, verify_type: 'bind_phone' })).code).toBe(200);
  });

  it('refuses a channel that does not fit the purpose', async () => {
    const a = await accountWith(t());
    const before = await t().snapshot();
    expect(await send(a.token, { send_type: 'email', send_value: freshEmail(), verify_type: 'bind_phone' })).toMatchObject({ code: 422, msg: M.sendTypeMismatch });
    expect(await send(a.token, { send_type: 'phone', send_value: freshPhone(), verify_type: 'edit_email' })).toMatchObject({ code: 422, msg: M.sendTypeMismatch });
    expect(await t().snapshot()).toEqual(before);
  });

  it('is for main accounts only', async () => {
    const a = await accountWith(t());
    const ram = await newRamAccount(t(), a.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    const before = await t().snapshot();
    for (const [send_type, send_value, verify_type] of [
      ['phone', freshPhone(), 'bind_phone'],
      ['phone', freshPhone(), 'edit_phone'],
      ['email', freshEmail(), 'bind_email'],
      ['email', freshEmail(), 'edit_email'],
    ]) {
      expect(await send(token, { send_type, send_value, verify_type }), verify_type).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    }
    expect(await t().snapshot()).toEqual(before);
  });
});
