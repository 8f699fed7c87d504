import { CODE, defaultEmail, defaultPhone, getAccountData, M } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers';
import { codeFor } from '../../../test/codes';
import { accountWith, freshEmail, freshMobile, proofOf, prove, snapshotIgnoringTries } from './fixtures';

describeEachDatabase('POST /account/default_phone', (t) => {
  const phoneOf = async (token: string) => (await t().call(getAccountData, { token })).data!.phone;

  it('binds a first phone with a bind_phone code (type 1)', async () => {
    const a = await accountWith(t(), { email: true });
    const mobile = freshMobile();
    const code = await codeFor(t(), a.token, 'phone', `+86 ${mobile}`, 'bind_phone');
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, area_code: '86', phone: mobile, code } })).toMatchObject({ code: 200, msg: M.bound });
    expect(await phoneOf(a.token)).toBe(`+86 ${mobile}`);
  });

  it('answers 401 while a phone is bound, then binds after the old phone is proven (type 2)', async () => {
    const a = await accountWith(t());
    const mobile = freshMobile();
    const code = await codeFor(t(), a.token, 'phone', `+86 ${mobile}`, 'bind_phone');
    const body = { type: 1, area_code: '86', phone: mobile, code };
    const before = await t().snapshot();
    expect(await t().call(defaultPhone, { token: a.token, body })).toMatchObject({ code: CODE.flow401, msg: M.phoneBoundVerify, status: 200 });
    expect(await t().snapshot()).toEqual(before);

    const old = await codeFor(t(), a.token, 'phone', a.phone!, 'verify_phone');
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 2, code: old } })).toMatchObject({ code: 200, msg: M.bindVerified });
    expect(await phoneOf(a.token)).toBe(a.phone);
    // The bind code is still good: the 401 did not use it.
    expect(await t().call(defaultPhone, { token: a.token, body })).toMatchObject({ code: 200, msg: M.bound });
    expect(await phoneOf(a.token)).toBe(`+86 ${mobile}`);
    expect(await proofOf(t(), a.account.id, 'verify_phone')).toBeNull();
  });

  it('type 2 refuses a wrong code or one of another purpose, and leaves no proof', async () => {
    const a = await accountWith(t());
    const bindCode = await codeFor(t(), a.token, 'phone', a.phone!, 'bind_phone');
    const before = await snapshotIgnoringTries(t());
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 2, code: bindCode } })).toMatchObject({ code: 422, msg: M.codeWrong });
    expect(await snapshotIgnoringTries(t())).toEqual(before);
    expect(await proofOf(t(), a.account.id, 'verify_phone')).toBeNull();
  });

  it('type 2 without a bound phone says so', async () => {
    const a = await accountWith(t(), { email: true });
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 2, code: '123456' } })).toMatchObject({ code: 422, msg: M.phoneNotBound });
  });

  it('unbinds with empty values only after a fresh proof (403 before), and the proof serves once', async () => {
    const a = await accountWith(t(), { phone: true, email: true });
    const unbind = { type: 1, area_code: '', phone: '', code: '' };
    const before = await t().snapshot();
    expect(await t().call(defaultPhone, { token: a.token, body: unbind })).toMatchObject({ code: CODE.flow403, msg: M.phoneUnbindVerify });
    expect(await t().snapshot()).toEqual(before);
    await prove(t(), a.token, 'phone', a.phone!);
    expect(await t().call(defaultPhone, { token: a.token, body: unbind })).toMatchObject({ code: 200, msg: M.unbound });
    expect(await phoneOf(a.token)).toBe('');
    expect(await proofOf(t(), a.account.id, 'verify_phone')).toBeNull();
    expect(await t().call(defaultPhone, { token: a.token, body: unbind })).toMatchObject({ code: 422, msg: M.phoneNotBound });
  });

  it('keeps the last contact: no unbinding a phone when no email is bound', async () => {
    const a = await accountWith(t());
    await prove(t(), a.token, 'phone', a.phone!);
    const before = await t().snapshot();
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, phone: '', code: '' } })).toMatchObject({ code: 422, msg: M.keepOneContact });
    expect(await t().snapshot()).toEqual(before);
  });

  it("refuses a phone bound to another account, and the current phone", async () => {
    const a = await accountWith(t(), { email: true });
    const b = await accountWith(t());
    const before = await t().snapshot();
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, area_code: '86', phone: b.phone!.slice(4), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.phoneBoundElsewhere,
    });
    expect(await t().snapshot()).toEqual(before);

    const c = await accountWith(t());
    await prove(t(), c.token, 'phone', c.phone!);
    expect(await t().call(defaultPhone, { token: c.token, body: { type: 1, area_code: '86', phone: c.phone!.slice(4), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.phoneSame,
    });
  });

  it('refuses a code of another purpose or another number, changing nothing', async () => {
    const a = await accountWith(t(), { email: true });
    const mobile = freshMobile();
    const editCode = await codeFor(t(), a.token, 'phone', `+86 ${mobile}`, 'edit_phone');
    const before = await snapshotIgnoringTries(t());
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, area_code: '86', phone: mobile, code: editCode } })).toMatchObject({
      code: 422,
      msg: M.codeWrong,
    });
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, area_code: '86', phone: freshMobile(), code: editCode } })).toMatchObject({
      code: 422,
      msg: M.codeWrong,
    });
    expect(await snapshotIgnoringTries(t())).toEqual(before);
  });

  it.each([
    ['no type', { type: undefined }, M.bindTypeInvalid],
    ['type 3', { type: 3 }, M.bindTypeInvalid],
    ['phone without code', { code: '' }, M.bindCodeRequired],
    ['code without phone', { phone: '' }, M.bindPhoneRequired],
    ['bad mainland number', { phone: '11012345678' }, M.mobileInvalid],
    ['short code', { code: '123' }, M.codeLength],
    ['type 2 without code', { type: 2, code: '' }, M.bindCodeRequired],
  ])('refuses %s', async (_name, over, msg) => {
    const a = await accountWith(t(), { email: true });
    const before = await t().snapshot();
    expect(await t().call(defaultPhone, { token: a.token, body: { type: 1, area_code: '86', phone: freshMobile(), code: '123456', ...over } })).toMatchObject({
      code: 422,
      msg,
    });
    expect(await t().snapshot()).toEqual(before);
  });
});

describeEachDatabase('POST /account/default_email', (t) => {
  const emailOf = async (token: string) => (await t().call(getAccountData, { token })).data!.email;

  it('binds a first email with a bind_email code', async () => {
    const a = await accountWith(t());
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'bind_email');
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 1, email: email.toUpperCase(), code } })).toMatchObject({ code: 200, msg: M.bound });
    expect(await emailOf(a.token)).toBe(email);
  });

  it('answers 401 while an email is bound; verify mode proves the old one, then the new one binds', async () => {
    const a = await accountWith(t(), { phone: true, email: true });
    const email = freshEmail();
    const code = await codeFor(t(), a.token, 'email', email, 'bind_email');
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 1, email, code } })).toMatchObject({ code: CODE.flow401, msg: M.emailBoundVerify });
    const old = await codeFor(t(), a.token, 'email', a.email!, 'verify_email');
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 2, code: old } })).toMatchObject({ code: 200, msg: M.bindVerified });
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 1, email, code } })).toMatchObject({ code: 200, msg: M.bound });
    expect(await emailOf(a.token)).toBe(email);
    // Codes are single use.
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 2, code: old } })).toMatchObject({ code: 422, msg: M.codeWrong });
  });

  it('unbinds after a proof (403 before); the last contact stays', async () => {
    const a = await accountWith(t(), { phone: true, email: true });
    const unbind = { type: 1, email: '', code: '' };
    expect(await t().call(defaultEmail, { token: a.token, body: unbind })).toMatchObject({ code: CODE.flow403, msg: M.emailUnbindVerify });
    await prove(t(), a.token, 'email', a.email!);
    expect(await t().call(defaultEmail, { token: a.token, body: unbind })).toMatchObject({ code: 200, msg: M.unbound });
    expect(await emailOf(a.token)).toBe('');

    const b = await accountWith(t(), { email: true });
    await prove(t(), b.token, 'email', b.email!);
    expect(await t().call(defaultEmail, { token: b.token, body: unbind })).toMatchObject({ code: 422, msg: M.keepOneContact });
  });

  it("refuses an email bound to another account in any case", async () => {
    const a = await accountWith(t());
    const b = await accountWith(t(), { email: true });
    const before = await t().snapshot();
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 1, email: b.email!.toUpperCase(), code: '123456' } })).toMatchObject({
      code: 422,
      msg: M.emailBoundElsewhere,
    });
    expect(await t().snapshot()).toEqual(before);
  });

  it.each([
    ['email without code', { code: '' }, M.bindCodeRequired],
    ['code without email', { email: '' }, M.bindEmailRequired],
    ['invalid email', { email: 'abc@' }, M.emailInvalid],
    ['short code', { code: '12' }, M.codeLength],
  ])('refuses %s', async (_name, over, msg) => {
    const a = await accountWith(t());
    const before = await t().snapshot();
    expect(await t().call(defaultEmail, { token: a.token, body: { type: 1, email: freshEmail(), code: '123456', ...over } })).toMatchObject({ code: 422, msg });
    expect(await t().snapshot()).toEqual(before);
  });
});
