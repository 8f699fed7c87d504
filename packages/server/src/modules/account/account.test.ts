import {
  CODE,
  defaultEmail,
  defaultPhone,
  editData,
  editEmail,
  editPassword,
  editPhone,
  editSign,
  fmt,
  getAccountData,
  LIMITS,
  latestBirthday,
  M,
  type Endpoint,
} from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../../test/helpers';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const goodData = { nickname: '小林科技', birthday: '1990-05-20', industry: 'I12', occupation: '网络工程师' };

describeEachDatabase('GET /account/data', (t) => {
  it('answers the account object of the caller', async () => {
    const a = await newAccount(t());
    const res = await t().call(getAccountData, { token: a.token });
    expect(res.code).toBe(200);
    expect(res.data).toEqual({
      username: a.username,
      nickname: '测试用户',
      birthday: '',
      industry: '',
      occupation: '',
      phone: a.verify,
      email: '',
      sign: a.account.sign,
      create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
  });
});

describeEachDatabase('POST /account/edit_data', (t) => {
  it('saves nickname, birthday, industry and occupation', async () => {
    const a = await newAccount(t());
    expect(await t().call(editData, { token: a.token, body: goodData })).toMatchObject({ code: 200, msg: M.saved });
    const res = await t().call(getAccountData, { token: a.token });
    expect(res.data).toMatchObject(goodData);
  });

  it('accepts a birthday exactly the minimum age before today', async () => {
    const a = await newAccount(t());
    const birthday = latestBirthday();
    expect((await t().call(editData, { token: a.token, body: { ...goodData, birthday } })).code).toBe(200);
  });

  describe('refusals change nothing', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty nickname', { nickname: '' }, M.nicknameRequired],
      ['blank nickname', { nickname: '   ' }, M.nicknameRequired],
      ['missing nickname', { nickname: undefined }, M.nicknameRequired],
      ['nickname of 13', { nickname: '一二三四五六七八九十一二三' }, M.accountNicknameMax],
      ['nickname with symbols', { nickname: 'lin<b>' }, M.nicknameChars],
      ['empty birthday', { birthday: '' }, M.birthdayRequired],
      ['birthday not a date', { birthday: '1990-02-30' }, M.birthdayInvalid],
      ['birthday in another format', { birthday: '1990/05/20' }, M.birthdayInvalid],
      ['birthday before 1900', { birthday: '1899-12-31' }, M.birthdayInvalid],
      ['birthday 10 days ago', { birthday: daysAgo(10) }, fmt(M.birthdayTooLate, { n: LIMITS.birthdayMinAgeDays })],
      ['birthday in the future', { birthday: daysAgo(-30) }, fmt(M.birthdayTooLate, { n: LIMITS.birthdayMinAgeDays })],
      ['empty industry', { industry: '' }, M.industryRequired],
      ['industry I23 (absent)', { industry: 'I23' }, M.industryInvalid],
      ['unknown industry', { industry: 'I99' }, M.industryInvalid],
      ['empty occupation', { occupation: '' }, M.occupationRequired],
      ['occupation of 13', { occupation: 'abcdefghijklm' }, M.occupationMax],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t());
      const before = await t().snapshot();
      const res = await t().call(editData, { token: a.token, body: { ...goodData, ...over } });
      expect(res).toMatchObject({ code: 422, msg });
      expect(await t().snapshot()).toEqual(before);
    });
  });
});

describeEachDatabase('POST /account/edit_sign', (t) => {
  it('changes the member suffix, stored lowercase', async () => {
    const a = await newAccount(t());
    const sign = `Ab${String(Date.now() % 1_000_000).padStart(6, '0')}`;
    expect(await t().call(editSign, { token: a.token, body: { sign } })).toMatchObject({ code: 200, msg: M.modified });
    expect((await t().call(getAccountData, { token: a.token })).data!.sign).toBe(sign.toLowerCase());
    // The same value again is accepted and changes nothing.
    const before = await t().snapshot();
    expect((await t().call(editSign, { token: a.token, body: { sign: sign.toUpperCase() } })).code).toBe(200);
    expect(await t().snapshot()).toEqual(before);
  });

  it("refuses another tenant's suffix in any case", async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    const before = await t().snapshot();
    expect(await t().call(editSign, { token: a.token, body: { sign: b.account.sign.toUpperCase() } })).toMatchObject({ code: 422, msg: M.signTaken });
    expect(await t().snapshot()).toEqual(before);
  });

  it.each([
    ['empty', '', M.signRequired],
    ['5 characters', 'abcde', M.signInvalid],
    ['13 characters', 'abcdefghijklm', M.signInvalid],
    ['symbols', 'abc-def', M.signInvalid],
    ['Chinese', '后缀后缀后缀', M.signInvalid],
  ])('refuses a suffix: %s', async (_name, sign, msg) => {
    const a = await newAccount(t());
    const before = await t().snapshot();
    expect(await t().call(editSign, { token: a.token, body: { sign } })).toMatchObject({ code: 422, msg });
    expect(await t().snapshot()).toEqual(before);
  });
});

/** Every call of the account area with a body that would pass validation. */
const MAIN_ONLY: [Endpoint, Record<string, unknown> | undefined][] = [
  [getAccountData, undefined],
  [editData, goodData],
  [editPassword, { new_password: 'newpass99', reset_password: 'newpass99' }],
  [editEmail, { email: 'x1@example.com', code: '123456' }],
  [editPhone, { area_code: '86', phone: '13600000000', code: '123456' }],
  [defaultPhone, { type: 1, area_code: '86', phone: '13600000000', code: '123456' }],
  [defaultEmail, { type: 1, email: 'x1@example.com', code: '123456' }],
  [editSign, { sign: 'abcdef12' }],
];

describeEachDatabase('account calls: who may call', (t) => {
  it.each(MAIN_ONLY.map(([e, body]) => [e.path, e, body] as const))('%s refuses a sub-account (403) and changes nothing', async (_path, endpoint, body) => {
    const main = await newAccount(t());
    const ram = await newRamAccount(t(), main.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    const before = await t().snapshot();
    const res = await t().call(endpoint, { token, ...(body ? { body } : {}) });
    expect(res).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    expect(await t().snapshot()).toEqual(before);
  });

  it.each(MAIN_ONLY.map(([e, body]) => [e.path, e, body] as const))('%s needs a token', async (_path, endpoint, body) => {
    const res = await t().call(endpoint, body ? { body } : {});
    expect(res).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
  });
});
