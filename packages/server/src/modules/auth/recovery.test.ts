import { accountInfo, authenticate, CODE, findPassword, findPasswordCode, LIMITS, M, resetPassword, sendRegisterCode } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, signIn, type TestApp } from '../../../test/helpers';

let seq = 0;
const freshPhone = () => `+86 158${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const freshEmail = () => `find${Date.now() % 100_000}n${++seq}@example.com`;

/** Step 1 with a fresh captcha; returns the envelope and the uniqid that names the recovery. */
async function step1(t: TestApp, username: string, ip = t.nextIp()) {
  const cap = await t.captcha();
  const res = await t.call(findPassword, { body: { username, img_code: cap.text, uniqid: cap.uniqid }, ip });
  return { res, uniqid: cap.uniqid };
}

/** Steps 1 and 2 and the code that arrived. */
async function throughStep2(t: TestApp, username: string, send_type: 'phone' | 'email', to: string) {
  const { res, uniqid } = await step1(t, username);
  expect(res.code).toBe(200);
  const sent = await t.call(findPasswordCode, { body: { uniqid, send_type }, ip: t.nextIp() });
  expect(sent).toMatchObject({ code: 200, msg: M.codeSent });
  return { uniqid, code: await t.lastCode(to) };
}

/** Steps 1 to 3. */
async function throughStep3(t: TestApp, username: string, send_type: 'phone' | 'email', to: string) {
  const { uniqid, code } = await throughStep2(t, username, send_type, to);
  const ok = await t.call(authenticate, { body: { code, uniqid, send_type }, ip: t.nextIp() });
  expect(ok.code).toBe(200);
  return uniqid;
}

describeEachDatabase('POST /verify/find_password (step 1)', (t) => {
  it('answers the masked phone of the account', async () => {
    const a = await newAccount(t(), { phone: '+86 15800001234' });
    const { res } = await step1(t(), a.username);
    expect(res).toMatchObject({ code: 200, status: 200 });
    expect(res.data).toEqual({ phone: '+86 158****1234' });
  });

  it('answers the masked email, and both when both are bound', async () => {
    const a = await newAccount(t(), { email: 'someone.find@example.com' });
    expect((await step1(t(), a.username)).res.data).toEqual({ email: 'so***@example.com' });
    await t().db.updateTable('account').set({ phone: '+86 15800005678' }).where('id', '=', a.account.id).execute();
    expect((await step1(t(), a.username.toUpperCase())).res.data).toEqual({ phone: '+86 158****5678', email: 'so***@example.com' });
  });

  it('finds the account by phone or email too', async () => {
    await newAccount(t(), { phone: '+86 15800004321' });
    expect((await step1(t(), '15800004321')).res.data).toEqual({ phone: '+86 158****4321' });
  });

  it('never reveals a short phone in full', async () => {
    const a = await newAccount(t(), { phone: '+852 91234' });
    const masked = (await step1(t(), a.username)).res.data!.phone!;
    expect(masked).not.toContain('91234');
    expect(masked.startsWith('+852 ')).toBe(true);
  });

  it('refuses an unknown account and a wrong or reused captcha, creating no recovery', async () => {
    const a = await newAccount(t());
    const before = await t().snapshot();
    expect((await step1(t(), 'nosuchuser1')).res).toMatchObject({ code: 422, msg: M.accountNotFound });
    const cap = await t().captcha();
    const wrongText = cap.text === 'zzzz' ? 'yyyy' : 'zzzz';
    const wrong = await t().call(findPassword, { body: { username: a.username, img_code: wrongText, uniqid: cap.uniqid }, ip: t().nextIp() });
    expect(wrong).toMatchObject({ code: 422, msg: M.captchaWrong });
    // The captcha was used up by the wrong answer.
    const reused = await t().call(findPassword, { body: { username: a.username, img_code: cap.text, uniqid: cap.uniqid }, ip: t().nextIp() });
    expect(reused).toMatchObject({ code: 422, msg: M.captchaWrong });
    expect(await t().snapshot()).toEqual(before);
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty username', { username: '' }, '用户名不能为空'],
      ['missing username', { username: undefined }, '用户名不能为空'],
      ['empty image code', { img_code: '' }, '验证码不能为空'],
      ['3-character image code', { img_code: 'abc' }, '验证码的长度必须为4位'],
      ['missing uniqid', { uniqid: undefined }, M.captchaWrong],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t());
      const cap = await t().captcha();
      const before = await t().snapshot();
      const res = await t().call(findPassword, { body: { username: a.username, img_code: cap.text, uniqid: cap.uniqid, ...over }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });
});

describeEachDatabase('POST /verify/find_password_code (step 2)', (t) => {
  it('sends a code to the bound phone or email', async () => {
    const a = await newAccount(t(), { email: freshEmail() });
    const { uniqid, code } = await throughStep2(t(), a.username, 'email', a.verify);
    expect(code).toMatch(/^\d{6}$/);
    const row = await t().db.selectFrom('verification_code').selectAll().where('destination', '=', a.verify).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.purpose).toBe('find_password');
    expect(uniqid).toBeTruthy();
  });

  it('refuses a channel the account has not bound, and an unknown recovery', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid } = await step1(t(), a.username);
    const before = await t().snapshot();
    expect(await t().call(findPasswordCode, { body: { uniqid, send_type: 'email' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.channelNotBound });
    expect(await t().call(findPasswordCode, { body: { uniqid: 'no-such-recovery', send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.recoveryExpired });
    expect(await t().call(findPasswordCode, { body: { uniqid, send_type: 'fax' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: '请选择验证方式' });
    expect(await t().call(findPasswordCode, { body: { send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.recoveryExpired });
    expect(await t().snapshot()).toEqual(before);
  });

  it('a recovery expires', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid } = await step1(t(), a.username);
    await t().db.updateTable('recovery').set({ expires_at: Date.now() - 1 }).where('id', '=', uniqid).execute();
    expect(await t().call(findPasswordCode, { body: { uniqid, send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.recoveryExpired });
  });

  it('keeps the 59 s cooldown', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid } = await throughStep2(t(), a.username, 'phone', a.verify);
    const again = await t().call(findPasswordCode, { body: { uniqid, send_type: 'phone' }, ip: t().nextIp() });
    expect(again).toMatchObject({ code: CODE.tooMany, status: 429 });
    expect(again.msg).toMatch(/秒后重试/);
  });
});

describeEachDatabase('POST /verify/authentication (step 3)', (t) => {
  it('accepts the code sent for the recovery', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid, code } = await throughStep2(t(), a.username, 'phone', a.verify);
    const res = await t().call(authenticate, { body: { code, uniqid, send_type: 'phone' }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 200 });
    const r = await t().db.selectFrom('recovery').selectAll().where('id', '=', uniqid).executeTakeFirstOrThrow();
    expect(r.verified_channel).toBe('phone');
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty code', { code: '' }, '手机验证码不能为空'],
      ['missing code', { code: undefined }, '手机验证码不能为空'],
      ['5-digit code', { code: '12345' }, '验证码长度必须为6位'],
      ['7-digit code', { code: '1234567' }, '验证码长度必须为6位'],
      ['missing uniqid', { uniqid: undefined }, M.recoveryExpired],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t(), { phone: freshPhone() });
      const { uniqid, code } = await throughStep2(t(), a.username, 'phone', a.verify);
      const before = await t().snapshot();
      const res = await t().call(authenticate, { body: { code, uniqid, send_type: 'phone', ...over }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });

  it('refuses a wrong code, a code of another purpose and a code of another channel', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid, code } = await throughStep2(t(), a.username, 'phone', a.verify);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await t().call(authenticate, { body: { code: wrong, uniqid, send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.codeWrong });
    // The account has no email: the phone's code does not pass as an email code.
    expect(await t().call(authenticate, { body: { code, uniqid, send_type: 'email' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.channelNotBound });

    // A registration code to the same email is not a recovery code.
    const b = await newAccount(t(), { email: freshEmail() });
    await t().db.updateTable('account').set({ email: null }).where('id', '=', b.account.id).execute();
    await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: b.verify }, ip: t().nextIp() });
    const registerCode = await t().lastCode(b.verify);
    await t().db.updateTable('account').set({ email: b.verify }).where('id', '=', b.account.id).execute();
    const { uniqid: u2 } = await step1(t(), b.username);
    expect(await t().call(authenticate, { body: { code: registerCode, uniqid: u2, send_type: 'email' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.codeWrong });
    const r = await t().db.selectFrom('recovery').selectAll().where('id', '=', u2).executeTakeFirstOrThrow();
    expect(r.verified_channel).toBeNull();
  });

  it('refuses an unknown recovery', async () => {
    expect(await t().call(authenticate, { body: { code: '123456', uniqid: 'nope', send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.recoveryExpired });
  });
});

describeEachDatabase('POST /verify/reset_password (step 4)', (t) => {
  it('sets the new password: it works, the old does not, sessions end, the uniqid is spent', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const uniqid = await throughStep3(t(), a.username, 'phone', a.verify);
    const res = await t().call(resetPassword, { body: { password: 'NewPass123', reset_password: 'NewPass123', uniqid }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 200, msg: M.resetSuccess });
    expect(await signIn(t(), a.username, a.password)).toMatchObject({ code: 422, msg: M.loginFailed });
    expect((await signIn(t(), a.username, 'NewPass123')).code).toBe(200);
    // The sessions opened with the old password are over.
    expect(await t().call(accountInfo, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
    // The recovery is gone: the uniqid cannot set a password again, nor start over.
    const before = await t().snapshot();
    const again = await t().call(resetPassword, { body: { password: 'Again12345', reset_password: 'Again12345', uniqid }, ip: t().nextIp() });
    expect(again).toMatchObject({ code: 422, msg: M.recoveryExpired });
    expect(await t().call(findPasswordCode, { body: { uniqid, send_type: 'phone' }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.recoveryExpired });
    expect(await t().snapshot()).toEqual(before);
  });

  it('works through the email channel', async () => {
    const a = await newAccount(t(), { email: freshEmail() });
    const uniqid = await throughStep3(t(), a.username, 'email', a.verify);
    expect((await t().call(resetPassword, { body: { password: 'ByMail123', reset_password: 'ByMail123', uniqid }, ip: t().nextIp() })).code).toBe(200);
    expect((await signIn(t(), a.verify, 'ByMail123')).code).toBe(200);
  });

  it('is refused before the identity step, changing nothing', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid } = await throughStep2(t(), a.username, 'phone', a.verify);
    const before = await t().snapshot();
    const res = await t().call(resetPassword, { body: { password: 'NewPass123', reset_password: 'NewPass123', uniqid }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 422, msg: M.recoveryNotVerified });
    expect(await t().snapshot()).toEqual(before);
    expect((await signIn(t(), a.username, a.password)).code).toBe(200);
  });

  it('is refused after the recovery expired', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const uniqid = await throughStep3(t(), a.username, 'phone', a.verify);
    await t().db.updateTable('recovery').set({ expires_at: Date.now() - 1 }).where('id', '=', uniqid).execute();
    const res = await t().call(resetPassword, { body: { password: 'NewPass123', reset_password: 'NewPass123', uniqid }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 422, msg: M.recoveryExpired });
    expect((await signIn(t(), a.username, a.password)).code).toBe(200);
  });

  it('a recovery lives 15 minutes', async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const { uniqid } = await step1(t(), a.username);
    const r = await t().db.selectFrom('recovery').selectAll().where('id', '=', uniqid).executeTakeFirstOrThrow();
    expect(r.expires_at - r.create_time).toBe(LIMITS.recoveryTtlSeconds * 1000);
    expect(r.account_id).toBe(a.account.id);
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty password', { password: '' }, M.newPasswordRequired],
      ['short password', { password: '12345', reset_password: '12345' }, '密码长度6-18位'],
      ['long password', { password: 'a'.repeat(19), reset_password: 'a'.repeat(19) }, '密码长度6-18位'],
      ['empty repeat', { reset_password: '' }, M.repeatPasswordRequired],
      ['passwords differ', { reset_password: 'Other1234' }, '2次密码输入不一致'],
      ['missing uniqid', { uniqid: undefined }, M.recoveryExpired],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t(), { phone: freshPhone() });
      const uniqid = await throughStep3(t(), a.username, 'phone', a.verify);
      const before = await t().snapshot();
      const res = await t().call(resetPassword, { body: { password: 'NewPass123', reset_password: 'NewPass123', uniqid, ...over }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });
});
