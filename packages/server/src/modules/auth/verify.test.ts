import { CODE, M, sendCode, verifyCode } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';

let seq = 0;
const freshPhone = () => `+86 147${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const freshEmail = () => `verify${Date.now() % 100_000}n${++seq}@example.com`;

function send(t: TestApp, token: string, body: Record<string, unknown>) {
  return t.call(sendCode, { token, body, ip: t.nextIp() });
}
function verify(t: TestApp, token: string, body: Record<string, unknown>) {
  return t.call(verifyCode, { token, body, ip: t.nextIp() });
}

describeEachDatabase('POST /verify/send_code', (t) => {
  it("sends a verify_phone code to the user's own phone", async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const res = await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' });
    expect(res).toMatchObject({ code: 200, msg: M.codeSent });
    expect(await t().lastCode(a.verify)).toMatch(/^\d{6}$/);
    const row = await t().db.selectFrom('verification_code').selectAll().where('destination', '=', a.verify).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.purpose).toBe('verify_phone');
  });

  it("sends a verify_email code to the user's own email in any case", async () => {
    const a = await newAccount(t(), { email: freshEmail() });
    const res = await send(t(), a.token, { send_type: 'email', send_value: a.verify.toUpperCase(), verify_type: 'verify_email' });
    expect(res.code).toBe(200);
    expect(await t().lastCode(a.verify)).toMatch(/^\d{6}$/);
  });

  it('refuses to send an identity code anywhere but to the own phone or email, sending nothing', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const other = freshPhone();
    const before = await t().snapshot();
    for (const body of [
      { send_type: 'phone', send_value: other, verify_type: 'verify_phone' },
      { send_type: 'email', send_value: freshEmail(), verify_type: 'verify_email' },
      { send_type: 'email', send_value: freshEmail(), verify_type: 'verify_phone' },
      { send_type: 'phone', send_value: other, verify_type: 'edit_password' },
      { send_type: 'email', send_value: freshEmail(), verify_type: 'edit_password' },
    ]) {
      expect(await send(t(), a.token, body), JSON.stringify(body)).toMatchObject({ code: 422, msg: M.channelNotBound });
    }
    expect(await t().snapshot()).toEqual(before);
  });

  it('sends an edit_password code to the own phone', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    expect((await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'edit_password' })).code).toBe(200);
  });

  it('sends a binding code to a new phone', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const fresh = freshPhone();
    expect((await send(t(), a.token, { send_type: 'phone', send_value: fresh, verify_type: 'bind_phone' })).code).toBe(200);
    expect(await t().lastCode(fresh)).toMatch(/^\d{6}$/);
  });

  it('a sub-account has no own phone or email to verify', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const ram = await newRamAccount(t(), a.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    expect(await send(t(), token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' })).toMatchObject({ code: 422, msg: M.channelNotBound });
  });

  it('needs a token', async () => {
    const res = await t().call(sendCode, { body: { send_type: 'phone', send_value: '+86 13800000000', verify_type: 'verify_phone' } });
    expect(res).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty phone', { send_value: '' }, '手机号码不能为空'],
      ['phone without area code', { send_value: '13800000000' }, '请输入最低4位数的手机号码'],
      ['empty email', { send_type: 'email', send_value: '' }, '邮箱号不能为空'],
      ['invalid email', { send_type: 'email', send_value: 'nope' }, '请输入正确的邮箱'],
      ['unknown verify_type', { verify_type: 'steal' }, '验证类型错误'],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t(), { phone: freshPhone() });
      const before = await t().snapshot();
      const res = await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone', ...over });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });
});

describeEachDatabase('POST /verify/verify', (t) => {
  it('accepts the code once and remembers the proof', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' });
    const code = await t().lastCode(a.verify);
    const res = await verify(t(), a.token, { send_type: 'phone', verify_type: 'verify_phone', code });
    expect(res).toMatchObject({ code: 200 });
    expect(await t().ctx.store.get(`verified:${a.account.id}:verify_phone`)).not.toBeNull();
    expect(await verify(t(), a.token, { send_type: 'phone', verify_type: 'verify_phone', code })).toMatchObject({ code: 422, msg: M.codeWrong });
  });

  it('a code serves only the verify_type it was sent for', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' });
    const code = await t().lastCode(a.verify);
    for (const verify_type of ['edit_password', 'bind_phone', 'edit_phone']) {
      expect(await verify(t(), a.token, { send_type: 'phone', verify_type, code }), verify_type).toMatchObject({ code: 422, msg: M.codeWrong });
    }
    expect(await t().ctx.store.get(`verified:${a.account.id}:edit_password`)).toBeNull();
    // Still good for its own purpose.
    expect((await verify(t(), a.token, { send_type: 'phone', verify_type: 'verify_phone', code })).code).toBe(200);
  });

  it("checks the code against the caller's own phone, not another account's", async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const b = await newAccount(t(), { phone: freshPhone() });
    await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' });
    const code = await t().lastCode(a.verify);
    expect(await verify(t(), b.token, { send_type: 'phone', verify_type: 'verify_phone', code })).toMatchObject({ code: 422, msg: M.codeWrong });
    expect((await verify(t(), a.token, { send_type: 'phone', verify_type: 'verify_phone', code })).code).toBe(200);
  });

  it('refuses a channel the account has not bound', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    expect(await verify(t(), a.token, { send_type: 'email', verify_type: 'verify_email', code: '123456' })).toMatchObject({ code: 422, msg: M.channelNotBound });
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty code', { code: '' }, '验证码不能为空'],
      ['missing code', { code: undefined }, '验证码不能为空'],
      ['5-digit code', { code: '12345' }, '验证码长度必须为6位'],
      ['7-digit code', { code: '1234567' }, '验证码长度必须为6位'],
      ['unknown verify_type', { verify_type: 'x' }, '验证类型错误'],
      ['unknown send_type', { send_type: 'x' }, '请选择验证方式'],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t(), { phone: freshPhone() });
      await send(t(), a.token, { send_type: 'phone', send_value: a.verify, verify_type: 'verify_phone' });
      const code = await t().lastCode(a.verify);
      const before = await t().snapshot();
      const res = await verify(t(), a.token, { send_type: 'phone', verify_type: 'verify_phone', code, ...over });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });

  it('needs a token', async () => {
    expect(await t().call(verifyCode, { body: { send_type: 'phone', verify_type: 'verify_phone', code: '123456' } })).toMatchObject({ code: 2001, status: 401 });
  });
});
