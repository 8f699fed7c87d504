import { accountInfo, editEmail, editPassword, editPhone, getAccountData, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, signIn } from '../../../test/helpers';
import { codeFor } from '../../../test/codes';
import { accountWith, freshEmail, freshMobile, proofOf, prove, snapshotIgnoringTries } from './fixtures';

const newPassword = { new_password: 'newpass99', reset_password: 'newpass99' };

describeEachDatabase('POST /account/edit_password', (t) => {
  it('changes the password after the phone proof, uses the proof up and ends the other sessions', async () => {
    const a = await accountWith(t());
    const other = (await signIn(t(), a.username, a.password)).data!.access_token;
    await prove(t(), a.token, 'phone', a.phone!);
    expect(await t().call(editPassword, { token: a.token, body: newPassword })).toMatchObject({ code: 200, msg: M.modified });
    expect(await proofOf(t(), a.account.id, 'verify_phone')).toBeNull();
    expect((await t().call(accountInfo, { token: a.token })).code).toBe(200);
    expect((await t().call(accountInfo, { token: other })).code).toBe(2001);
    expect((await signIn(t(), a.username, a.password)).msg).toBe(M.loginFailed);
    expect((await signIn(t(), a.username, 'newpass99')).code).toBe(200);
    // The proof served once.
    expect(await t().call(editPassword, { token: a.token, body: { new_password: 'third999', reset_password: 'third999' } })).toMatchObject({
      code: 422,
      msg: M.recoveryNotVerified,
    });
  });

  it('accepts the email proof', async () => {
    const a = await accountWith(t(), { email: true });
    await prove(t(), a.token, 'email', a.email!);
    expect((await t().call(editPassword, { token: a.token, body: newPassword })).code).toBe(200);
  });

  it('refuses without a proof, changing nothing', async () => {
    const a = await accountWith(t());
    const before = await t().snapshot();
    expect(await t().call(editPassword, { token: a.token, body: newPassword })).toMatchObject({ code: 422, msg: M.recoveryNotVerified });
    expect(await t().snapshot()).toEqual(before);
  });

  it('refuses an account with neither phone nor email', async () => {
    const a = await newAccount(t());
    await t().db.updateTable('account').set({ phone: null }).where('id', '=', a.account.id).execute();
    const before = await t().snapshot();
    expect(await t().call(editPassword, { token: a.token, body: newPassword })).toMatchObject({ code: 422, msg: M.bindContactFirst });
    expect(await t().snapshot()).toEqual(before);
  });

  it.each([
    ['empty new password', { new_password: '' }, M.newPasswordRequired],
    ['empty repeat', { reset_password: '' }, M.repeatPasswordRequired],
    ['5 characters', { new_password: '12345', reset_password: '12345' }, M.passwordLengthShort],
    ['19 characters', { new_password: 'a'.repeat(19), reset_password: 'a'.repeat(19) }, M.passwordLengthShort],
    ['different repeat', { reset_password: 'newpass98' }, M.passwordMismatch],
  ])('refuses %s, keeping the proof', async (_name, over, msg) => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const before = await t().snapshot();
    expect(await t().call(editPassword, { token: a.token, body: { ...newPassword, ...over } })).toMatchObject({ code: 422, msg });
    expect(await t().snapshot()).toEqual(before);
    expect(await proofOf(t(), a.account.id, 'verify_phone')).not.toBeNull();
  });

  it('a verify code is not a proof until /verify/verify accepts it', async () => {
    const a = await accountWith(t());
    await codeFor(t(), a.token, 'phone', a.phone!, 'verify_phone');
    expect(await t().call(editPassword, { token: a.token, body: newPassword })).toMatchObject({ code: 422, msg: M.recoveryNotVerified });
  });
});

describeEachDatabase('POST /account/edit_email', (t) => {
  it('changes the email with the proof and an edit_email code sent to the new address', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'edit_email');
    expect(await t().call(editEmail, { token: a.token, body: { email: email.toUpperCase(), code } })).toMatchObject({ code: 200, msg: M.modified });
    expect((await t().call(getAccountData, { token: a.token })).data!.email).toBe(email);
    expect(await proofOf(t(), a.account.id, 'verify_phone')).toBeNull();
    // Code and proof are used up.
    const again = freshEmail();
    expect(await t().call(editEmail, { token: a.token, body: { email: again, code } })).toMatchObject({ code: 422, msg: M.recoveryNotVerified });
  });

  it('refuses without a proof, before the code is tried', async () => {
    const a = await accountWith(t());
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'edit_email');
    const before = await t().snapshot();
    expect(await t().call(editEmail, { token: a.token, body: { email, code } })).toMatchObject({ code: 422, msg: M.recoveryNotVerified });
    expect(await t().snapshot()).toEqual(before);
  });

  it('refuses a code sent for another purpose and keeps the proof', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'bind_email');
    const before = await snapshotIgnoringTries(t());
    expect(await t().call(editEmail, { token: a.token, body: { email, code } })).toMatchObject({ code: 422, msg: M.codeWrong });
    expect(await snapshotIgnoringTries(t())).toEqual(before);
    expect(await proofOf(t(), a.account.id, 'verify_phone')).not.toBeNull();
  });

  it('refuses a code sent to another address', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const code = await codeFor(t(), a.token, 'email', freshEmail(), 'edit_email');
    const before = await snapshotIgnoringTries(t());
    expect(await t().call(editEmail, { token: a.token, body: { email: freshEmail(), code } })).toMatchObject({ code: 422, msg: M.codeWrong });
    expect(await snapshotIgnoringTries(t())).toEqual(before);
  });

  it('refuses an expired code', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'edit_email');
    await t().expireCodes(email);
    const before = await t().snapshot();
    expect(await t().call(editEmail, { token: a.token, body: { email, code } })).toMatchObject({ code: 422, msg: M.codeExpired });
    expect(await t().snapshot()).toEqual(before);
  });

  it("refuses another account's email and the current one", async () => {
    const a = await accountWith(t(), { phone: true, email: true });
    const b = await accountWith(t(), { email: true });
    await prove(t(), a.token, 'phone', a.phone!);
    const code = '123456';
    const before = await t().snapshot();
    expect(await t().call(editEmail, { token: a.token, body: { email: b.email!.toUpperCase(), code } })).toMatchObject({ code: 422, msg: M.emailBoundElsewhere });
    expect(await t().call(editEmail, { token: a.token, body: { email: a.email!, code } })).toMatchObject({ code: 422, msg: M.emailSame });
    expect(await t().snapshot()).toEqual(before);
  });

  it.each([
    ['empty email', { email: '' }, M.emailRequired],
    ['invalid email', { email: 'not-an-email' }, M.emailInvalid],
    ['65 characters', { email: `${'a'.repeat(53)}@example.com` }, M.emailInvalid],
    ['empty code', { code: '' }, M.codeRequired],
    ['5-digit code', { code: '12345' }, M.codeLength],
  ])('refuses %s', async (_name, over, msg) => {
    const a = await accountWith(t());
    const before = await t().snapshot();
    expect(await t().call(editEmail, { token: a.token, body: { email: freshEmail(), code: '123456', ...over } })).toMatchObject({ code: 422, msg });
    expect(await t().snapshot()).toEqual(before);
  });
});

describeEachDatabase('POST /account/edit_phone', (t) => {
  it('changes the phone with the email proof and an edit_phone code', async () => {
    const a = await accountWith(t(), { phone: true, email: true });
    await prove(t(), a.token, 'email', a.email!);
    const mobile = freshMobile();
    const code = await codeFor(t(), a.token, 'phone', `+86 ${mobile}`, 'edit_phone');
    expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: mobile, code } })).toMatchObject({ code: 200, msg: M.modified });
    expect((await t().call(getAccountData, { token: a.token })).data!.phone).toBe(`+86 ${mobile}`);
    // The new phone signs in.
    expect((await signIn(t(), mobile, a.password)).code).toBe(200);
  });

  it('takes a number of another region', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const mobile = String(Date.now()).slice(-8);
    const code = await codeFor(t(), a.token, 'phone', `+852 ${mobile}`, 'edit_phone');
    expect((await t().call(editPhone, { token: a.token, body: { area_code: '852', phone: mobile, code } })).code).toBe(200);
    expect((await t().call(getAccountData, { token: a.token })).data!.phone).toBe(`+852 ${mobile}`);
  });

  it('refuses an edit_email or verify_phone code in place of edit_phone', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const mobile = freshMobile();
    const code = await codeFor(t(), a.token, 'phone', `+86 ${mobile}`, 'bind_phone');
    const before = await snapshotIgnoringTries(t());
    expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: mobile, code } })).toMatchObject({ code: 422, msg: M.codeWrong });
    expect(await snapshotIgnoringTries(t())).toEqual(before);
  });

  it("refuses another account's phone", async () => {
    const a = await accountWith(t());
    const b = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const before = await t().snapshot();
    expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: b.phone!.slice(4), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.phoneBoundElsewhere,
    });
    expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: a.phone!.slice(4), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.phoneSame,
    });
    expect(await t().snapshot()).toEqual(before);
  });

  it('refuses without a proof', async () => {
    const a = await accountWith(t());
    const before = await t().snapshot();
    expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: freshMobile(), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.recoveryNotVerified,
    });
    expect(await t().snapshot()).toEqual(before);
  });

  describe('validation', () => {
    it.each([
      ['empty phone', { phone: '' }, M.phoneRequired],
      ['mainland number starting 12', { phone: '12012345678' }, M.mobileInvalid],
      ['mainland number of 10 digits', { phone: '1361234567' }, M.mobileInvalid],
      ['letters', { phone: '136abc45678' }, M.mobileInvalid],
      ['other region, 3 digits', { area_code: '852', phone: '123' }, M.mobileInvalid],
      ['bad area code', { area_code: '86a' }, M.areaCodeInvalid],
      ['empty code', { code: '' }, M.codeRequired],
      ['7-digit code', { code: '1234567' }, M.codeLength],
    ])('%s', async (_name, over, msg) => {
      const a = await accountWith(t());
      const before = await t().snapshot();
      expect(await t().call(editPhone, { token: a.token, body: { area_code: '86', phone: freshMobile(), code: '123456', ...over } })).toMatchObject({
        code: 422,
        msg,
      });
      expect(await t().snapshot()).toEqual(before);
    });
  });
});
