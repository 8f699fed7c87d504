import { CODE, findPassword, getCaptcha, login, M, sendRegisterCode } from '@hublink/contract';
import { expect, it } from 'vitest';
import { RATE_LIMITS } from '../../core/ratelimit';
import { MemoryStore } from '../../core/store';
import { createTestApp, describeEachDatabase, newAccount, signIn, type TestApp } from '../../../test/helpers';

let seq = 0;
const freshPhone = () => `+86 166${String(Date.now() % 10_000).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const freshEmail = () => `limit${Date.now() % 100_000}n${++seq}@example.com`;

const tooManyLogins = { code: CODE.tooMany, status: 429, msg: '登录尝试过于频繁，请稍后再试' };
const tooManyCodes = { code: CODE.tooMany, status: 429, msg: '验证码发送过于频繁，请稍后再试' };

describeEachDatabase('login attempt limits', (t) => {
  it(`per address: after ${RATE_LIMITS.loginPerIp.max} failures, 429 even with the right password`, async () => {
    const a = await newAccount(t());
    const ip = t().nextIp();
    for (let i = 0; i < RATE_LIMITS.loginPerIp.max; i++) {
      // A different unknown name each time: only the address limit can be reached.
      expect((await signIn(t(), `nobody${i}x${seq}`, 'wrong-password', { ip })).msg).toBe(M.loginFailed);
    }
    const before = await t().snapshot();
    expect(await signIn(t(), a.username, a.password, { ip })).toMatchObject(tooManyLogins);
    expect(await t().snapshot()).toEqual(before);
    // Another address is not affected.
    expect((await signIn(t(), a.username, a.password)).code).toBe(200);
  });

  it(`per account: after ${RATE_LIMITS.loginPerAccount.max} failures from anywhere, 429 by any of its names`, async () => {
    const a = await newAccount(t(), { phone: freshPhone() });
    const b = await newAccount(t());
    for (let i = 0; i < RATE_LIMITS.loginPerAccount.max; i++) {
      // Username, phone and +86 phone are one account.
      const name = [a.username, a.verify.slice(4), a.verify][i % 3]!;
      expect((await signIn(t(), name, 'wrong-password')).msg).toBe(M.loginFailed);
    }
    expect(await signIn(t(), a.username, a.password)).toMatchObject(tooManyLogins);
    expect(await signIn(t(), a.verify.slice(4), a.password)).toMatchObject(tooManyLogins);
    expect(await signIn(t(), a.username.toUpperCase(), a.password)).toMatchObject(tooManyLogins);
    // Another account is not affected.
    expect((await signIn(t(), b.username, b.password)).code).toBe(200);
  });

  it(`per account under concurrency: of 30 wrong passwords at once, ${RATE_LIMITS.loginPerAccount.max} are checked and the rest refused`, async () => {
    const a = await newAccount(t());
    // Every captcha first, so that the 30 attempts reach the server together.
    const captchas = await Promise.all(Array.from({ length: 30 }, () => t().captcha()));
    const answers = await Promise.all(
      captchas.map((cap) => t().call(login, { body: { username: a.username, password: 'wrong-password', code: cap.text, uniqid: cap.uniqid }, ip: t().nextIp() })),
    );
    expect(answers.filter((r) => r.msg === M.loginFailed)).toHaveLength(RATE_LIMITS.loginPerAccount.max);
    expect(answers.filter((r) => r.msg === tooManyLogins.msg)).toHaveLength(30 - RATE_LIMITS.loginPerAccount.max);
  });

  it('an unknown name is limited the same way', async () => {
    for (let i = 0; i < RATE_LIMITS.loginPerAccount.max; i++) {
      expect((await signIn(t(), 'ghostuser1', 'wrong-password')).msg).toBe(M.loginFailed);
    }
    expect(await signIn(t(), 'ghostuser1', 'wrong-password')).toMatchObject(tooManyLogins);
  });

  it('a successful sign-in clears the account count', async () => {
    const a = await newAccount(t());
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < RATE_LIMITS.loginPerAccount.max - 1; i++) {
        expect((await signIn(t(), a.username, 'wrong-password')).msg).toBe(M.loginFailed);
      }
      expect((await signIn(t(), a.username, a.password)).code).toBe(200);
    }
  });

  it('the count ends with its window', async () => {
    let now = Date.now();
    const app = await createTestApp(t().dialect, { store: new MemoryStore(() => now) });
    try {
      const a = await newAccount(app);
      for (let i = 0; i < RATE_LIMITS.loginPerAccount.max; i++) await signIn(app, a.username, 'wrong-password');
      expect(await signIn(app, a.username, a.password)).toMatchObject(tooManyLogins);
      now += RATE_LIMITS.loginPerAccount.windowSeconds * 1000;
      expect((await signIn(app, a.username, a.password)).code).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describeEachDatabase('code sending limits', (t) => {
  const sendTo = (app: TestApp, send_type: string, send_value: string, ip: string) =>
    app.call(sendRegisterCode, { body: { send_type, send_value }, ip });

  it(`per destination: ${RATE_LIMITS.codePerDestination.max} codes, then 429`, async () => {
    const phone = freshPhone();
    for (let i = 0; i < RATE_LIMITS.codePerDestination.max; i++) {
      expect((await sendTo(t(), 'phone', phone, t().nextIp())).code).toBe(200);
      await t().ageCodes(phone);
    }
    const before = await t().snapshot();
    expect(await sendTo(t(), 'phone', phone, t().nextIp())).toMatchObject(tooManyCodes);
    expect(await t().snapshot()).toEqual(before);
  });

  it(`per address: ${RATE_LIMITS.codePerIp.max} codes, then 429`, async () => {
    const ip = t().nextIp();
    for (let i = 0; i < RATE_LIMITS.codePerIp.max; i++) {
      expect((await sendTo(t(), 'email', freshEmail(), ip)).code).toBe(200);
    }
    const before = await t().snapshot();
    expect(await sendTo(t(), 'email', freshEmail(), ip)).toMatchObject(tooManyCodes);
    expect(await t().snapshot()).toEqual(before);
    expect((await sendTo(t(), 'email', freshEmail(), t().nextIp())).code).toBe(200);
  });

  it("asking about a registered phone counts against the phone's limit (its registration code counted already)", async () => {
    const { verify } = await newAccount(t(), { phone: freshPhone() });
    for (let i = 1; i < RATE_LIMITS.codePerDestination.max; i++) expect((await sendTo(t(), 'phone', verify, t().nextIp())).msg).toBe(M.phoneTaken);
    expect(await sendTo(t(), 'phone', verify, t().nextIp())).toMatchObject(tooManyCodes);
  });

  it("asking about registered phones counts against the address's limit", async () => {
    const taken: string[] = [];
    for (let i = 0; i < 4; i++) taken.push((await newAccount(t(), { phone: freshPhone() })).verify);
    const ip = t().nextIp();
    for (let i = 0; i < RATE_LIMITS.codePerIp.max; i++) expect((await sendTo(t(), 'phone', taken[i % taken.length]!, ip)).msg).toBe(M.phoneTaken);
    expect(await sendTo(t(), 'phone', freshPhone(), ip)).toMatchObject(tooManyCodes);
    expect((await sendTo(t(), 'phone', freshPhone(), t().nextIp())).code).toBe(200);
  });
});

describeEachDatabase('captcha and recovery limits', (t) => {
  it(`captchas per address: ${RATE_LIMITS.captchaPerIp.max}, then 429`, async () => {
    const ip = t().nextIp();
    for (let i = 0; i < RATE_LIMITS.captchaPerIp.max; i++) {
      expect((await t().call(getCaptcha, { ip })).code).toBe(200);
    }
    expect(await t().call(getCaptcha, { ip })).toMatchObject({ code: 429, status: 429, msg: M.tooManyRequests });
    expect((await t().call(getCaptcha, { ip: t().nextIp() })).code).toBe(200);
  });

  it(`recovery lookups per address: ${RATE_LIMITS.recoveryPerIp.max}, then 429`, async () => {
    const ip = t().nextIp();
    for (let i = 0; i < RATE_LIMITS.recoveryPerIp.max; i++) {
      const cap = await t().captcha();
      const res = await t().call(findPassword, { body: { username: `nosuch${i}user`, img_code: cap.text, uniqid: cap.uniqid }, ip });
      expect(res.msg).toBe(M.accountNotFound);
    }
    const cap = await t().captcha();
    const res = await t().call(findPassword, { body: { username: 'nosuchuser', img_code: cap.text, uniqid: cap.uniqid }, ip });
    expect(res).toMatchObject({ code: 429, status: 429, msg: M.tooManyRequests });
  });
});
