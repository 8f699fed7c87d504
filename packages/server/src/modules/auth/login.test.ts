import { accountInfo, CODE, getCaptcha, LIMITS, login, loginRam, M, userMessage } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/store';
import { createTestApp, describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';

const loginBody = (username: string, password: string, cap: { uniqid: string; text: string }) => ({
  username,
  password,
  code: cap.text,
  uniqid: cap.uniqid,
});

describeEachDatabase('GET /verify/code', (t) => {
  it('returns an SVG data URI and a uniqid', async () => {
    const res = await t().call(getCaptcha);
    expect(res).toMatchObject({ code: 200, status: 200 });
    expect(res.data!.content).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(res.data!.content.split(',')[1]!, 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(res.data!.uniqid).toMatch(/^[0-9a-f-]{36}$/);
    const again = await t().call(getCaptcha);
    expect(again.data!.uniqid).not.toBe(res.data!.uniqid);
  });

  it('the answer of a served captcha signs in, once', async () => {
    const a = await newAccount(t());
    const res = await t().call(getCaptcha);
    const text = (await t().ctx.captcha.peek(res.data!.uniqid))!;
    expect(text).toHaveLength(LIMITS.captchaLength);
    const cap = { uniqid: res.data!.uniqid, text };
    const first = await t().call(login, { body: loginBody(a.username, a.password, cap), ip: t().nextIp() });
    expect(first.code).toBe(200);
    const second = await t().call(login, { body: loginBody(a.username, a.password, cap), ip: t().nextIp() });
    expect(second).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
  });

  it('compares the answer case-insensitively', async () => {
    const a = await newAccount(t());
    const cap = await t().captcha();
    // Answers are stored lowercased; typing them in capitals works.
    const upper = { uniqid: cap.uniqid, text: cap.text.toUpperCase() };
    const res = await t().call(login, { body: loginBody(a.username, a.password, upper), ip: t().nextIp() });
    expect(res.code).toBe(200);
  });

  it('a rejected login burns the captcha', async () => {
    const a = await newAccount(t());
    const cap = await t().captcha();
    const wrong = await t().call(login, { body: loginBody(a.username, 'not-the-password', cap), ip: t().nextIp() });
    expect(wrong).toMatchObject({ code: CODE.invalid, msg: M.loginFailed });
    const retry = await t().call(login, { body: loginBody(a.username, a.password, cap), ip: t().nextIp() });
    expect(retry).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
  });

  it('a wrong answer burns the captcha too', async () => {
    const a = await newAccount(t());
    const cap = await t().captcha();
    const wrongText = cap.text === 'zzzz' ? 'yyyy' : 'zzzz';
    const wrong = await t().call(login, { body: loginBody(a.username, a.password, { ...cap, text: wrongText }), ip: t().nextIp() });
    expect(wrong).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
    const retry = await t().call(login, { body: loginBody(a.username, a.password, cap), ip: t().nextIp() });
    expect(retry).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
  });

  it('an unknown uniqid is refused', async () => {
    const a = await newAccount(t());
    const res = await t().call(login, { body: loginBody(a.username, a.password, { uniqid: 'no-such-captcha', text: 'abcd' }), ip: t().nextIp() });
    expect(res).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
  });
});

describeEachDatabase('GET /verify/code expiry', (t) => {
  it('expires after 5 minutes', async () => {
    let now = Date.now();
    const app = await createTestApp(t().dialect, { store: new MemoryStore(() => now) });
    try {
      const a = await newAccount(app);
      const fresh = await app.captcha();
      now += (LIMITS.captchaTtlSeconds - 1) * 1000;
      expect((await app.call(login, { body: loginBody(a.username, a.password, fresh), ip: app.nextIp() })).code).toBe(200);

      const old = await app.captcha();
      now += LIMITS.captchaTtlSeconds * 1000;
      const res = await app.call(login, { body: loginBody(a.username, a.password, old), ip: app.nextIp() });
      expect(res).toMatchObject({ code: CODE.invalid, msg: M.captchaWrong });
    } finally {
      await app.close();
    }
  });
});

describeEachDatabase('POST /login/authorization', (t) => {
  async function expectNoSession(run: () => Promise<unknown>) {
    const before = await t().snapshot();
    await run();
    expect(await t().snapshot()).toEqual(before);
  }

  it('signs in by username and returns the token, its lifetime in seconds and the user message', async () => {
    const a = await newAccount(t(), { phone: '+86 13900000001' });
    const res = await signIn(t(), a.username, a.password);
    expect(res).toMatchObject({ code: 200, status: 200 });
    const data = res.data!;
    expect(data.access_token.split('.')).toHaveLength(3);
    expect(data.token_expire_time).toBe(t().ctx.config.tokenTtlSeconds);
    expect(userMessage.strict().parse(data.user)).toEqual({
      nickname: '测试用户',
      username: a.username,
      ram: 0,
      user_phone: '+86 13900000001',
      user_email: '',
      message_count: 0,
      sign: a.account.sign,
      config: { software_auth_source: 0 },
      auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
      role: null,
    });
    expect(a.account.sign).toMatch(/^[a-z][a-z0-9]{7}$/);
    const info = await t().call(accountInfo, { token: data.access_token });
    expect(info).toMatchObject({ code: 200, data: data.user });
  });

  it('opens a session for the account', async () => {
    const a = await newAccount(t());
    const before = await t().db.selectFrom('session').selectAll().where('tenant_id', '=', a.account.id).execute();
    const res = await signIn(t(), a.username, a.password);
    expect(res.code).toBe(200);
    const after = await t().db.selectFrom('session').selectAll().where('tenant_id', '=', a.account.id).execute();
    expect(after).toHaveLength(before.length + 1);
    const s = after.find((x) => !before.some((b) => b.id === x.id))!;
    expect(s).toMatchObject({ ram_id: null, revoked_at: null });
    expect(s.refresh_until - s.create_time).toBe(t().ctx.config.sessionTtlSeconds * 1000);
  });

  it('takes the username in any case and trims it', async () => {
    const a = await newAccount(t());
    expect((await signIn(t(), `  ${a.username.toUpperCase()} `, a.password)).code).toBe(200);
  });

  it('signs in by phone, with or without the +86 prefix', async () => {
    const a = await newAccount(t(), { phone: '+86 13900000000' });
    const bare = await signIn(t(), '13900000000', a.password);
    expect(bare.code).toBe(200);
    expect(bare.data!.user.username).toBe(a.username);
    const prefixed = await signIn(t(), '+86 13900000000', a.password);
    expect(prefixed.code).toBe(200);
    expect(prefixed.data!.user.username).toBe(a.username);
  });

  it('signs in by email in any case', async () => {
    const a = await newAccount(t(), { email: 'Login.Case@Example.com' });
    expect(a.account.email).toBe('login.case@example.com');
    const res = await signIn(t(), 'LOGIN.case@example.COM', a.password);
    expect(res.code).toBe(200);
    expect(res.data!.user).toMatchObject({ username: a.username, user_email: 'login.case@example.com', user_phone: '' });
  });

  it('a username made of digits and a phone with the same digits are two accounts, each with its password', async () => {
    const byName = await newAccount(t(), { username: '13600000000', password: 'byname123' });
    const byPhone = await newAccount(t(), { phone: '+86 13600000000', password: 'byphone123' });
    const a = await signIn(t(), '13600000000', 'byname123');
    expect(a.data?.user.username).toBe(byName.username);
    const b = await signIn(t(), '13600000000', 'byphone123');
    expect(b.data?.user.username).toBe(byPhone.username);
    const c = await signIn(t(), '+86 13600000000', 'byphone123');
    expect(c.data?.user.username).toBe(byPhone.username);
  });

  it('the user message counts unread messages and carries the config and auth flags', async () => {
    const a = await newAccount(t());
    const now = Date.now();
    await t()
      .db.insertInto('message')
      .values([
        { tenant_id: a.account.id, title: 'a', content: 'a', type: 'system', status: 0, create_time: now },
        { tenant_id: a.account.id, title: 'b', content: 'b', type: 'system', status: 0, create_time: now },
        { tenant_id: a.account.id, title: 'c', content: 'c', type: 'system', status: 1, create_time: now },
      ])
      .execute();
    await t()
      .db.updateTable('account')
      .set({ software_auth_source: 1, auth_quagga: 1, auth_quagga_advanced: 1, auth_default_route: 1 })
      .where('id', '=', a.account.id)
      .execute();
    const res = await signIn(t(), a.username, a.password);
    expect(res.data!.user).toMatchObject({
      message_count: 2,
      config: { software_auth_source: 1 },
      auth: { quagga: 1, quagga_advanced: 1, default_route: 1 },
    });
    // Another tenant's messages are not counted.
    const other = await newAccount(t());
    expect((await signIn(t(), other.username, other.password)).data!.user.message_count).toBe(0);
  });

  it('refuses a wrong password and an unknown account with the same message, and opens no session', async () => {
    const a = await newAccount(t());
    await expectNoSession(async () => {
      const wrong = await signIn(t(), a.username, 'wrong-password');
      expect(wrong).toMatchObject({ code: CODE.invalid, msg: '用户名或密码错误', status: 200 });
      expect(wrong.data).toBeUndefined();
      const unknown = await signIn(t(), 'nobody000', a.password);
      expect(unknown).toMatchObject({ code: CODE.invalid, msg: '用户名或密码错误' });
      const otherPhone = await signIn(t(), '13000000000', a.password);
      expect(otherPhone).toMatchObject({ code: CODE.invalid, msg: '用户名或密码错误' });
    });
  });

  it('refuses a disabled account', async () => {
    const a = await newAccount(t());
    await t().db.updateTable('account').set({ status: 0 }).where('id', '=', a.account.id).execute();
    await expectNoSession(async () => {
      const res = await signIn(t(), a.username, a.password);
      expect(res).toMatchObject({ code: CODE.invalid, msg: M.accountDisabled });
    });
  });

  it('a main account cannot sign in at /login/authorization with a sub-account name', async () => {
    const a = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const res = await signIn(t(), ram.login, ram.password);
    expect(res).toMatchObject({ code: CODE.invalid, msg: M.loginFailed });
  });

  describe('validation (first failing rule)', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['missing username', { username: undefined }, '用户名不能为空'],
      ['blank username', { username: '   ' }, '用户名不能为空'],
      ['missing password', { password: undefined }, '密码不能为空'],
      ['empty password', { password: '' }, '密码不能为空'],
      ['short password', { password: '12345' }, '密码长度6-18位'],
      ['long password', { password: 'a'.repeat(19) }, '密码长度6-18位'],
      ['missing captcha', { code: undefined }, '验证码不能为空'],
      ['empty captcha', { code: '' }, '验证码不能为空'],
      ['short captcha', { code: 'abc' }, '验证码的长度必须为4位'],
      ['long captcha', { code: 'abcde' }, '验证码的长度必须为4位'],
      ['captcha with a symbol', { code: 'ab#c' }, M.captchaChars],
      ['missing uniqid', { uniqid: undefined }, M.captchaWrong],
      ['everything empty', { username: '', password: '', code: '' }, '用户名不能为空'],
      ['password and captcha wrong', { password: '1', code: '1' }, '密码长度6-18位'],
    ];
    it.each(cases)('%s', async (_name, over, msg) => {
      const a = await newAccount(t());
      const cap = await t().captcha();
      const body = { ...loginBody(a.username, a.password, cap), ...over };
      await expectNoSession(async () => {
        const res = await t().call(login, { body, ip: t().nextIp() });
        expect(res).toMatchObject({ code: 422, msg, status: 200 });
      });
      // A refused request never reached the captcha: it still works.
      expect((await t().call(login, { body: loginBody(a.username, a.password, cap), ip: t().nextIp() })).code).toBe(200);
    });
  });
});

describeEachDatabase('POST /login/ram', (t) => {
  let seq = 0;
  /** A tenant whose username has capitals: its domain is the lowercased username. */
  async function tenant(app: TestApp) {
    return newAccount(app, { username: `Tenant${++seq}x${Date.now() % 100_000}` });
  }

  it('signs a sub-account in as name@domain; the user message has ram 1', async () => {
    const a = await tenant(t());
    const ram = await newRamAccount(t(), a.account.id, { username: 'Operator1', nickname: '运维' });
    expect(ram.domain).toBe(a.username.toLowerCase());
    const res = await signIn(t(), `Operator1@${a.username.toLowerCase()}`, ram.password, { ram: true });
    expect(res).toMatchObject({ code: 200 });
    expect(res.data!.token_expire_time).toBe(t().ctx.config.tokenTtlSeconds);
    expect(userMessage.strict().parse(res.data!.user)).toEqual({
      nickname: '运维',
      username: `Operator1@${a.username.toLowerCase()}`,
      ram: 1,
      user_phone: '',
      user_email: '',
      message_count: 0,
      sign: a.account.sign,
      config: { software_auth_source: 0 },
      auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
      // The console offers what the role grants (the server's guard enforces it).
      role: expect.objectContaining({ monitor: expect.objectContaining({ view: 1 }), 'easylink.network': expect.objectContaining({ network: [] }) }),
    });
    const info = await t().call(accountInfo, { token: res.data!.access_token });
    expect(info.data).toMatchObject({ ram: 1, username: `Operator1@${a.username.toLowerCase()}` });
    const session = await t().db.selectFrom('session').selectAll().where('ram_id', '=', ram.id).executeTakeFirstOrThrow();
    expect(session.tenant_id).toBe(a.account.id);
    await t().ctx.events.settle();
    const row = await t().db.selectFrom('ram_account').select('login_time').where('id', '=', ram.id).executeTakeFirstOrThrow();
    expect(row.login_time).toBeGreaterThan(0);
  });

  it('takes name and domain in any case', async () => {
    const a = await tenant(t());
    const ram = await newRamAccount(t(), a.account.id, { username: 'mixedCase' });
    const res = await signIn(t(), `MIXEDcase@${a.username.toUpperCase()}`, ram.password, { ram: true });
    expect(res.code).toBe(200);
    expect(res.data!.user.username).toBe(`mixedCase@${a.username.toLowerCase()}`);
  });

  it('refuses a wrong domain, a wrong password, a missing domain and a main account, and changes nothing', async () => {
    const a = await tenant(t());
    const b = await tenant(t());
    const ram = await newRamAccount(t(), a.account.id);
    const before = await t().snapshot();
    for (const [username, password] of [
      [`${ram.username}@${b.username.toLowerCase()}`, ram.password],
      [`${ram.username}@nosuchdomain`, ram.password],
      [ram.login, 'wrong-password'],
      [ram.username, ram.password],
      [`@${a.username.toLowerCase()}`, ram.password],
      [a.username, a.password],
    ] as const) {
      const res = await signIn(t(), username, password, { ram: true });
      expect(res, username).toMatchObject({ code: CODE.invalid, msg: M.loginFailed });
    }
    // login_time and sessions untouched.
    expect(await t().snapshot()).toEqual(before);
  });

  it('refuses a disabled sub-account and a sub-account of a disabled tenant', async () => {
    const a = await tenant(t());
    const off = await newRamAccount(t(), a.account.id, { status: 0 });
    expect(await signIn(t(), off.login, off.password, { ram: true })).toMatchObject({ code: CODE.invalid, msg: M.accountDisabled });

    const b = await tenant(t());
    const on = await newRamAccount(t(), b.account.id);
    await t().db.updateTable('account').set({ status: 0 }).where('id', '=', b.account.id).execute();
    const before = await t().snapshot();
    expect(await signIn(t(), on.login, on.password, { ram: true })).toMatchObject({ code: CODE.invalid, msg: M.accountDisabled });
    expect(await t().snapshot()).toEqual(before);
  });

  it('validates like the main login', async () => {
    const cap = await t().captcha();
    const res = await t().call(loginRam, { body: { username: '', password: '123456', code: cap.text, uniqid: cap.uniqid }, ip: t().nextIp() });
    expect(res).toMatchObject({ code: 422, msg: '用户名不能为空' });
    const short = await t().call(loginRam, { body: { username: 'a@b', password: '123', code: cap.text, uniqid: cap.uniqid }, ip: t().nextIp() });
    expect(short).toMatchObject({ code: 422, msg: '密码长度6-18位' });
  });
});
