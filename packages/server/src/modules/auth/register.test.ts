import { M, register, sendRegisterCode } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../core/passwords';
import { RATE_LIMITS } from '../../core/ratelimit';
import { describeEachDatabase, newAccount, signIn, type TestApp } from '../../../test/helpers';

let seq = 0;
const freshPhone = () => `+86 135${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const freshEmail = () => `Reg${Date.now() % 100_000}N${++seq}@Example.com`;
const freshUsername = () => `New${Date.now() % 100_000}u${++seq}`;

/** Sends a register code to a destination and returns it. */
async function codeFor(t: TestApp, type: 'phone' | 'email', verify: string) {
  const sent = await t.call(sendRegisterCode, { body: { send_type: type, send_value: verify }, ip: t.nextIp() });
  expect(sent.code).toBe(200);
  return t.lastCode(type === 'email' ? verify.toLowerCase() : verify);
}

async function validBody(t: TestApp, type: 'phone' | 'email' = 'phone') {
  const verify = type === 'phone' ? freshPhone() : freshEmail();
  const password = 'Secret123';
  return { nickname: '新用户1', username: freshUsername(), password, newPassword: password, code: await codeFor(t, type, verify), type, verify };
}

describeEachDatabase('POST /account/register', (t) => {
  it('creates a main account bound to its phone, on the default plan, and it can sign in', async () => {
    const body = await validBody(t(), 'phone');
    const res = await t().call(register, { body, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 200, msg: M.registerSuccess, status: 200 });
    const a = await t().db.selectFrom('account').selectAll().where('username_key', '=', body.username.toLowerCase()).executeTakeFirstOrThrow();
    expect(a).toMatchObject({
      username: body.username,
      nickname: body.nickname,
      phone: body.verify,
      email: null,
      domain: body.username.toLowerCase(),
      status: 1,
      software_auth_source: 0,
      ...t().ctx.config.defaultPlan,
    });
    expect(a.password_hash).not.toContain(body.password);
    expect(await verifyPassword(body.password, a.password_hash)).toBe(true);
    expect(a.sign).toMatch(/^[a-z][a-z0-9]{7}$/);
    const login = await signIn(t(), body.username, body.password);
    expect(login.code).toBe(200);
    expect(login.data!.user).toMatchObject({ username: body.username, nickname: body.nickname, user_phone: body.verify });
  });

  it('creates an account bound to its email, lowercased', async () => {
    const body = await validBody(t(), 'email');
    expect((await t().call(register, { body, ip: t().nextIp() })).code).toBe(200);
    const a = await t().db.selectFrom('account').selectAll().where('username_key', '=', body.username.toLowerCase()).executeTakeFirstOrThrow();
    expect(a).toMatchObject({ email: body.verify.toLowerCase(), phone: null });
    expect((await signIn(t(), body.verify.toUpperCase(), body.password)).code).toBe(200);
  });

  it('gives every account its own member suffix (sign)', async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    expect(a.account.sign).not.toBe(b.account.sign);
  });

  describe('validation: the first failing rule, and nothing changes', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['missing nickname', { nickname: undefined }, '昵称不能为空'],
      ['empty nickname', { nickname: '' }, '昵称不能为空'],
      ['one-character nickname', { nickname: '张' }, '昵称长度2-12字符，由中文,英文,数字组成'],
      ['13-character nickname', { nickname: 'a'.repeat(13) }, '昵称长度2-12字符，由中文,英文,数字组成'],
      ['nickname with a symbol', { nickname: '张三!' }, '昵称不能包含特殊字符'],
      ['nickname with a space inside', { nickname: '张 三' }, '昵称不能包含特殊字符'],
      ['missing username', { username: undefined }, '用户名不能为空'],
      ['empty username', { username: '' }, '用户名不能为空'],
      ['5-character username', { username: 'abc12' }, '用户名长度6-18位，由数字和字母组成。用于登陆使用'],
      ['19-character username', { username: 'a'.repeat(19) }, '用户名长度6-18位，由数字和字母组成。用于登陆使用'],
      ['username with an underscore', { username: 'abc_def' }, '用户名不能包含特殊字符和中文'],
      ['username with Chinese', { username: '用户abcdef' }, '用户名不能包含特殊字符和中文'],
      ['username with an @', { username: 'abc@def' }, '用户名不能包含特殊字符和中文'],
      ['missing password', { password: undefined }, '密码不能为空'],
      ['empty password', { password: '' }, '密码不能为空'],
      ['5-character password', { password: '12345', newPassword: '12345' }, '密码长度6-18位'],
      ['19-character password', { password: 'a'.repeat(19), newPassword: 'a'.repeat(19) }, '密码长度6-18位'],
      ['empty confirmation', { newPassword: '' }, M.confirmPasswordRequired],
      ['short confirmation', { newPassword: '12345' }, '密码长度6-18位'],
      ['passwords differ', { newPassword: 'Other1234' }, '2次密码输入不一致'],
      ['missing code', { code: undefined }, '验证码不能为空'],
      ['empty code', { code: '' }, '验证码不能为空'],
      ['5-digit code', { code: '12345' }, '请输入验证码'],
      ['7-digit code', { code: '1234567' }, '请输入验证码'],
      ['empty phone', { verify: '' }, '手机号码不能为空'],
      ['missing phone', { verify: undefined }, '手机号码不能为空'],
      ['phone of 3 digits', { verify: '+86 123' }, '请输入最低4位数的手机号码'],
      ['phone without area code', { verify: '13800000000' }, '请输入最低4位数的手机号码'],
      ['empty email', { type: 'email', verify: '' }, '邮箱号不能为空'],
      ['missing email', { type: 'email', verify: undefined }, '邮箱号不能为空'],
      ['invalid email', { type: 'email', verify: 'abc' }, '请输入正确的邮箱'],
      ['email without a domain dot', { type: 'email', verify: 'abc@example' }, '请输入正确的邮箱'],
      ['unknown type', { type: 'fax' }, '请选择验证方式'],
      ['nickname and username both wrong', { nickname: '!', username: '!' }, '昵称长度2-12字符，由中文,英文,数字组成'],
      ['username and password both wrong', { username: 'ab', password: '1' }, '用户名长度6-18位，由数字和字母组成。用于登陆使用'],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const body = { ...(await validBody(t())), ...over };
      const before = await t().snapshot();
      const res = await t().call(register, { body, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 422, msg, status: 200 });
      expect(await t().snapshot()).toEqual(before);
    });
  });

  it('trims the nickname and the username', async () => {
    const body = await validBody(t());
    const res = await t().call(register, { body: { ...body, nickname: ` ${body.nickname} `, username: ` ${body.username} ` }, ip: t().nextIp() });
    expect(res.code).toBe(200);
    const a = await t().db.selectFrom('account').selectAll().where('username_key', '=', body.username.toLowerCase()).executeTakeFirstOrThrow();
    expect(a).toMatchObject({ username: body.username, nickname: body.nickname });
  });

  /** A snapshot without the codes' try counters (a check counts its try, whatever follows). */
  const withoutTries = (snap: Record<string, unknown[]>) => ({ ...snap, verification_code: snap.verification_code!.map((r) => ({ ...(r as object), attempts: 0 })) });

  it('refuses a username taken in any case after a valid code, without using the code', async () => {
    const existing = await newAccount(t());
    const body = await validBody(t());
    const before = await t().snapshot();
    const res = await t().call(register, { body: { ...body, username: existing.username.toUpperCase() }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 422, msg: M.usernameTaken });
    expect(withoutTries(await t().snapshot())).toEqual(withoutTries(before));
    // The code is still good for another username.
    expect((await t().call(register, { body, ip: t().nextIp() })).code).toBe(200);
  });

  /** A register code for an address that is registered already (one sent just before it was taken). */
  async function codeForTaken(type: 'phone' | 'email', verify: string) {
    const destination = type === 'email' ? verify.toLowerCase() : verify;
    await t().ageCodes(destination);
    await t().ctx.codes.send(type, verify, 'register', t().nextIp());
    return t().lastCode(destination);
  }

  it('refuses a phone that is already registered, to whoever proves it with a valid code', async () => {
    const body = await validBody(t());
    expect((await t().call(register, { body, ip: t().nextIp() })).code).toBe(200);
    const again = { ...body, username: freshUsername(), code: await codeForTaken('phone', body.verify) };
    const before = await t().snapshot();
    expect(await t().call(register, { body: again, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.phoneTaken });
    expect(withoutTries(await t().snapshot())).toEqual(withoutTries(before));
  });

  it('refuses an email that is already registered, in any case, to whoever proves it with a valid code', async () => {
    const body = await validBody(t(), 'email');
    expect((await t().call(register, { body, ip: t().nextIp() })).code).toBe(200);
    const again = { ...body, username: freshUsername(), verify: body.verify.toUpperCase(), code: await codeForTaken('email', body.verify) };
    const before = await t().snapshot();
    expect(await t().call(register, { body: again, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.emailTaken });
    expect(withoutTries(await t().snapshot())).toEqual(withoutTries(before));
  });

  it('without a valid code, says the same whether the username, phone or email is taken or free (no enumeration)', async () => {
    const existing = await newAccount(t());
    const free = await validBody(t());
    const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
    const attempts = [
      { ...free, code: wrong(free.code) },
      { ...free, code: wrong(free.code), username: existing.username },
      { ...free, code: wrong(free.code), verify: existing.verify },
      { ...free, code: wrong(free.code), username: existing.username, verify: existing.verify },
      { ...free, type: 'email', verify: `taken${Date.now()}@example.com`, code: '123456' },
    ];
    for (const body of attempts) {
      const before = await t().snapshot();
      expect(await t().call(register, { body, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.codeWrong });
      expect(withoutTries(await t().snapshot())).toEqual(withoutTries(before));
    }
  });

  it('limits failed registrations per client address, as logins are', async () => {
    const ip = t().nextIp();
    const body = await validBody(t());
    const wrong = body.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < RATE_LIMITS.registerPerIp.max; i++) {
      expect((await t().call(register, { body: { ...body, code: wrong }, ip })).code).toBe(422);
    }
    const before = await t().snapshot();
    expect(await t().call(register, { body, ip })).toMatchObject({ code: 429, msg: M.tooManyRegisters, status: 429 });
    expect(await t().snapshot()).toEqual(before);
    // Another address is not held back.
    expect((await t().call(register, { body: await validBody(t()), ip: t().nextIp() })).code).toBe(200);
  });

  it('refuses a wrong code and creates nothing', async () => {
    const body = await validBody(t());
    const wrong = body.code === '000000' ? '111111' : '000000';
    const res = await t().call(register, { body: { ...body, code: wrong }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 422, msg: M.codeWrong });
    const found = await t().db.selectFrom('account').select('id').where('username_key', '=', body.username.toLowerCase()).execute();
    expect(found).toHaveLength(0);
  });

  it('refuses a code of another destination', async () => {
    const a = await validBody(t());
    const b = await validBody(t());
    if (a.code === b.code) return;
    expect(await t().call(register, { body: { ...a, code: b.code }, ip: t().nextIp() })).toMatchObject({ code: 422, msg: M.codeWrong });
  });

  it('of two registrations of one username at once, one wins', async () => {
    const username = freshUsername();
    const a = { ...(await validBody(t())), username };
    const b = { ...(await validBody(t(), 'email')), username: username.toLowerCase() };
    const results = await Promise.all([t().call(register, { body: a, ip: t().nextIp() }), t().call(register, { body: b, ip: t().nextIp() })]);
    expect(results.map((r) => r.code).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.code === 422)!.msg).toBe(M.usernameTaken);
    const rows = await t().db.selectFrom('account').select('id').where('username_key', '=', username.toLowerCase()).execute();
    expect(rows).toHaveLength(1);
  });
});
