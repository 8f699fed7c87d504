import { CODE, fmt, LIMITS, M, register, sendCode, sendRegisterCode } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';

let seq = 0;
/** A phone no other test of the file uses. */
const freshPhone = () => `+86 137${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const freshEmail = () => `code${Date.now() % 100_000}n${++seq}@example.com`;

async function send(t: TestApp, send_type: string, send_value: string, ip = t.nextIp()) {
  return t.call(sendRegisterCode, { body: { send_type, send_value }, ip });
}

/** Registers with a code; a fresh username each time. */
async function registerWith(t: TestApp, verify: string, code: string, type: 'phone' | 'email' = 'phone') {
  const username = `reg${Date.now() % 100_000}n${++seq}`;
  return t.call(register, {
    body: { nickname: '注册用户', username, password: 'secret123', newPassword: 'secret123', code, type, verify },
    ip: t.nextIp(),
  });
}

describeEachDatabase('POST /verify/register', (t) => {
  it('sends a 6-digit code to a phone through the outbox and keeps only its hash', async () => {
    const phone = freshPhone();
    const res = await send(t(), 'phone', phone);
    expect(res).toMatchObject({ code: 200, msg: M.codeSent, status: 200 });
    const code = await t().lastCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const out = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', phone).executeTakeFirstOrThrow();
    expect(out).toMatchObject({ channel: 'sms', status: 'logged', error: null });
    expect(out.body).toContain(code);
    expect(out.body).toContain(`${LIMITS.codeTtlSeconds / 60}分钟`);
    const row = await t().db.selectFrom('verification_code').selectAll().where('destination', '=', phone).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'register', attempts: 0, used_at: null });
    expect(row.expires_at - row.create_time).toBe(LIMITS.codeTtlSeconds * 1000);
    expect(row.code_hash).not.toContain(code);
  });

  it('sends to an email, lowercased', async () => {
    const email = freshEmail();
    const res = await send(t(), 'email', email.toUpperCase());
    expect(res.code).toBe(200);
    const out = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(out.channel).toBe('email');
    expect(out.subject).toContain('验证码');
    expect(out.body).toContain(await t().lastCode(email));
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty phone', { send_type: 'phone', send_value: '' }, '手机号码不能为空'],
      ['missing phone', { send_type: 'phone' }, '手机号码不能为空'],
      ['short phone', { send_type: 'phone', send_value: '+86 123' }, '请输入最低4位数的手机号码'],
      ['phone without area code', { send_type: 'phone', send_value: '13800000000' }, '请输入最低4位数的手机号码'],
      ['empty email', { send_type: 'email', send_value: '' }, '邮箱号不能为空'],
      ['missing email', { send_type: 'email' }, '邮箱号不能为空'],
      ['invalid email', { send_type: 'email', send_value: 'not-an-email' }, '请输入正确的邮箱'],
      ['short email', { send_type: 'email', send_value: 'a@b' }, '请输入正确的邮箱'],
      ['unknown send_type', { send_type: 'fax', send_value: '+86 13800000000' }, '请选择验证方式'],
    ];
    it.each(cases)('%s', async (_name, body, msg) => {
      const before = await t().snapshot();
      const res = await t().call(sendRegisterCode, { body, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 422, msg, status: 200 });
      expect(await t().snapshot()).toEqual(before);
    });
  });

  it('refuses a phone or an email that is already registered (email in any case), sending nothing', async () => {
    const p = await newAccount(t(), { phone: freshPhone() });
    const e = await newAccount(t(), { email: freshEmail() });
    const before = await t().snapshot();
    expect(await send(t(), 'phone', p.verify)).toMatchObject({ code: 422, msg: M.phoneTaken });
    expect(await send(t(), 'email', e.verify.toUpperCase())).toMatchObject({ code: 422, msg: M.emailTaken });
    expect(await t().snapshot()).toEqual(before);
  });

  it('enforces the 59 s cooldown: 429 with the seconds left', async () => {
    const phone = freshPhone();
    expect((await send(t(), 'phone', phone)).code).toBe(200);
    const before = await t().snapshot();
    const again = await send(t(), 'phone', phone);
    expect(again).toMatchObject({ code: CODE.tooMany, status: 429, msg: fmt(M.codeCooldown, { n: LIMITS.codeCooldownSeconds }) });
    expect(await t().snapshot()).toEqual(before);

    // Half-way through the window the message counts down.
    await t().ageCodes(phone, 30_000);
    const later = await send(t(), 'phone', phone);
    expect(later.status).toBe(429);
    const left = Number(/请(\d+)秒后重试/.exec(later.msg)?.[1]);
    expect(left).toBeGreaterThanOrEqual(LIMITS.codeCooldownSeconds - 31);
    expect(left).toBeLessThanOrEqual(LIMITS.codeCooldownSeconds - 30);

    // The cooldown is per destination; an email in another case is the same destination.
    expect((await send(t(), 'phone', freshPhone())).code).toBe(200);
    const email = freshEmail();
    expect((await send(t(), 'email', email)).code).toBe(200);
    expect((await send(t(), 'email', email.toUpperCase())).status).toBe(429);
  });

  it('requests sent all at once send one code', async () => {
    const phone = freshPhone();
    const results = await Promise.all(Array.from({ length: 6 }, () => send(t(), 'phone', phone)));
    expect(results.map((r) => r.code).sort()).toEqual([200, 429, 429, 429, 429, 429]);
    const sent = await t().db.selectFrom('outbox').select('id').where('recipient', '=', phone).execute();
    expect(sent).toHaveLength(1);
  });

  it('after the cooldown a new code is sent and the previous one stops working', async () => {
    const phone = freshPhone();
    await send(t(), 'phone', phone);
    const first = await t().lastCode(phone);
    await t().ageCodes(phone, LIMITS.codeCooldownSeconds * 1000);
    expect((await send(t(), 'phone', phone)).code).toBe(200);
    const second = await t().lastCode(phone);
    if (first !== second) expect(await registerWith(t(), phone, first)).toMatchObject({ code: 422, msg: M.codeWrong });
    expect((await registerWith(t(), phone, second)).code).toBe(200);
  });
});

describeEachDatabase('verification code rules (through /account/register)', (t) => {
  it('expires after 10 minutes', async () => {
    const fresh = freshPhone();
    await send(t(), 'phone', fresh);
    await t().expireCodes(fresh, (LIMITS.codeTtlSeconds - 30) * 1000);
    expect((await registerWith(t(), fresh, await t().lastCode(fresh))).code).toBe(200);

    const old = freshPhone();
    await send(t(), 'phone', old);
    await t().expireCodes(old);
    const before = await t().snapshot();
    expect(await registerWith(t(), old, await t().lastCode(old))).toMatchObject({ code: 422, msg: M.codeExpired });
    expect(await t().snapshot()).toEqual(before);
  });

  it('5 wrong tries burn the code', async () => {
    const phone = freshPhone();
    await send(t(), 'phone', phone);
    const code = await t().lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < LIMITS.codeMaxAttempts; i++) {
      expect(await registerWith(t(), phone, wrong)).toMatchObject({ code: 422, msg: '验证码错误' });
    }
    expect(await registerWith(t(), phone, wrong)).toMatchObject({ code: 422, msg: '验证码错误次数过多，请重新获取' });
    expect(await registerWith(t(), phone, code)).toMatchObject({ code: 422, msg: '验证码错误次数过多，请重新获取' });
    const accounts = await t().db.selectFrom('account').select('id').where('phone', '=', phone).execute();
    expect(accounts).toHaveLength(0);
    // A new code after the cooldown works.
    await t().ageCodes(phone);
    await send(t(), 'phone', phone);
    expect((await registerWith(t(), phone, await t().lastCode(phone))).code).toBe(200);
  });

  it('wrong tries sent all at once are counted too', async () => {
    const phone = freshPhone();
    await send(t(), 'phone', phone);
    const code = await t().lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const results = await Promise.all(Array.from({ length: 12 }, () => registerWith(t(), phone, wrong)));
    expect(results.every((r) => r.code === 422)).toBe(true);
    const row = await t().db.selectFrom('verification_code').selectAll().where('destination', '=', phone).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(LIMITS.codeMaxAttempts);
    expect(row.used_at).not.toBeNull();
    expect(await registerWith(t(), phone, code)).toMatchObject({ code: 422, msg: M.codeBurned });
  });

  it('a code sent to one destination does not work for another', async () => {
    const a = freshPhone();
    const b = freshPhone();
    await send(t(), 'phone', a);
    await send(t(), 'phone', b);
    const codeA = await t().lastCode(a);
    const codeB = await t().lastCode(b);
    if (codeA !== codeB) expect(await registerWith(t(), b, codeA)).toMatchObject({ code: 422, msg: M.codeWrong });
    // Nothing sent to this one at all.
    expect(await registerWith(t(), freshPhone(), codeA)).toMatchObject({ code: 422, msg: M.codeWrong });
  });

  it('a code sent for another purpose does not work', async () => {
    const user = await newAccount(t());
    const phone = freshPhone();
    // A signed-in user asks for a code to bind this phone: same destination, other purpose.
    expect((await t().call(sendCode, { token: user.token, body: { send_type: 'phone', send_value: phone, verify_type: 'bind_phone' }, ip: t().nextIp() })).code).toBe(200);
    const bindCode = await t().lastCode(phone);
    expect(await registerWith(t(), phone, bindCode)).toMatchObject({ code: 422, msg: M.codeWrong });
    const row = await t().db.selectFrom('verification_code').selectAll().where('destination', '=', phone).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'bind_phone', attempts: 0, used_at: null });
  });
});
