import { addRouter, CODE, fmt, listRouters, M, routerQuantity } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { verifyPassword } from '../../core/passwords';
import { addMember, freshMobile, freshName, memberCode, membersOf } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

const setPlan = (t: TestApp, tenantId: number, count: number) => t.db.updateTable('account').set({ network_router_count: count }).where('id', '=', tenantId).execute();
const rowOf = (t: TestApp, tenantId: number, name: string) =>
  t.db.selectFrom('member').selectAll().where('tenant_id', '=', tenantId).where('router_key', '=', name.toLowerCase()).executeTakeFirst();

describeEachDatabase('POST /router/add', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    await setPlan(t(), a.account.id, 100);
    await setPlan(t(), b.account.id, 100);
  });

  it('adds a software member with its password hashed and source console', async () => {
    const name = freshName('Soft.user_');
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 2, username: name, password: 'pass1234', note: '研发' } })).toMatchObject({ code: 200, msg: M.saved });
    const row = (await rowOf(t(), a.account.id, name))!;
    expect(row).toMatchObject({ router_name: name, router_key: name.toLowerCase(), router_type: 2, note: '研发', phone: null, status: 1, source: 'console' });
    expect(row.secret_hash).not.toContain('pass1234');
    expect(await verifyPassword('pass1234', row.secret_hash)).toBe(true);
  });

  it('adds a hardware member: the name is the router_name, the password its device secret', async () => {
    const name = freshName('GW');
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 1, username: name, password: 'devsecret1' } })).toMatchObject({ code: 200 });
    const row = (await rowOf(t(), a.account.id, name))!;
    expect(row.router_type).toBe(1);
    expect(await verifyPassword('devsecret1', row.secret_hash)).toBe(true);
  });

  describe('the rules of the form', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['account missing', { username: '' }, M.memberAccountRequired],
      ['account with Chinese', { username: '张三' }, M.memberAccountChars],
      ['account with a special character', { username: 'ab-cd' }, M.memberAccountChars],
      ['account over 18', { username: 'a'.repeat(19) }, M.memberAccountTooLong],
      ['password missing', { password: '' }, M.memberPasswordRequired],
      ['password under 6', { password: '12345' }, M.memberPasswordLength],
      ['password over 18', { password: 'a'.repeat(19) }, M.memberPasswordLength],
      ['note over 24', { note: 'n'.repeat(25) }, M.memberNoteTooLong],
      ['type of member', { router_type: 3 }, M.memberTypeInvalid],
      ['phone pattern', { phone: '12345678901', code: '123456' }, M.mobileInvalid],
      ['phone without a code', { phone: '13712345678' }, M.bindCodeRequired],
      ['code not 6 long', { phone: '13712345678', code: '12345' }, M.codeLength],
      ['phone on a hardware member', { router_type: 1, phone: '13712345678', code: '123456' }, M.memberHardwarePhone],
    ];
    for (const [what, over, msg] of cases) {
      it(`refuses ${what}`, async () => {
        const before = await membersOf(t(), a.account.id);
        const body = { router_type: 2, username: freshName(), password: 'pass1234', ...over };
        expect(await t().call(addRouter, { token: a.token, body })).toMatchObject({ code: 422, msg });
        expect(await membersOf(t(), a.account.id)).toEqual(before);
      });
    }
  });

  it('refuses a name the tenant has, in any case, whatever the kind', async () => {
    const name = await addMember(t(), a.token);
    for (const router_type of [2, 1]) {
      expect(await t().call(addRouter, { token: a.token, body: { router_type, username: name.toUpperCase(), password: 'pass1234' } })).toMatchObject({ code: 422, msg: M.memberNameTaken });
    }
    // Another tenant may have a software member of the same name.
    expect(await t().call(addRouter, { token: b.token, body: { router_type: 2, username: name, password: 'pass1234' } })).toMatchObject({ code: 200 });
  });

  it('refuses a hardware name another tenant has (a device has one name everywhere)', async () => {
    const name = await addMember(t(), a.token, { router_type: 1, username: freshName('Dev') });
    expect(await t().call(addRouter, { token: b.token, body: { router_type: 1, username: name.toLowerCase(), password: 'devsecret1' } })).toMatchObject({ code: 422, msg: M.memberHardwareTaken });
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 1, username: name, password: 'devsecret1' } })).toMatchObject({ code: 422, msg: M.memberHardwareTaken });
    // A software member of that name in the other tenant is not a device.
    expect(await t().call(addRouter, { token: b.token, body: { router_type: 2, username: name, password: 'pass1234' } })).toMatchObject({ code: 200 });
  });

  it('two adds racing for one name: one wins, the other gets the message', async () => {
    const name = freshName('race');
    const body = { router_type: 1, username: name, password: 'devsecret1' };
    const [r1, r2] = await Promise.all([t().call(addRouter, { token: a.token, body }), t().call(addRouter, { token: b.token, body })]);
    expect([r1.code, r2.code].sort()).toEqual([200, 422]);
    expect([r1, r2].find((r) => r.code === 422)!.msg).toBe(M.memberHardwareTaken);
    expect(await t().db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).execute()).toHaveLength(1);
  });
});

describeEachDatabase('POST /router/add: the plan', (t) => {
  it('adds up to network_router_count members of both kinds, refuses one more, and after a lowered plan', async () => {
    const a = await newAccount(t());
    await setPlan(t(), a.account.id, 3);
    await addMember(t(), a.token, { router_type: 1, username: freshName('hw') });
    await addMember(t(), a.token);
    // The last place (2 used of 3) is given.
    await addMember(t(), a.token);
    expect(await t().call(routerQuantity, { token: a.token })).toMatchObject({ data: { hardware: 1, software: 2, max: 3, software_surplus: 0 } });
    const before = await membersOf(t(), a.account.id);
    for (const router_type of [1, 2]) {
      expect(await t().call(addRouter, { token: a.token, body: { router_type, username: freshName(), password: 'pass1234' } })).toMatchObject({
        code: 422,
        msg: fmt(M.memberQuotaFull, { n: 3 }),
      });
    }
    expect(await membersOf(t(), a.account.id)).toEqual(before);
    // The operator lowers the plan below what is used: still refused, with the new number.
    await setPlan(t(), a.account.id, 2);
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 2, username: freshName(), password: 'pass1234' } })).toMatchObject({ msg: fmt(M.memberQuotaFull, { n: 2 }) });
    // And raised again: one more fits.
    await setPlan(t(), a.account.id, 4);
    await addMember(t(), a.token);
  });

  it('adds racing for the last place: exactly one gets it', async () => {
    const a = await newAccount(t());
    await setPlan(t(), a.account.id, 1);
    const results = await Promise.all(
      [1, 2, 3].map(() => t().call(addRouter, { token: a.token, body: { router_type: 2, username: freshName('r'), password: 'pass1234' } })),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === 422).map((r) => r.msg)).toEqual([fmt(M.memberQuotaFull, { n: 1 }), fmt(M.memberQuotaFull, { n: 1 })]);
    expect(await membersOf(t(), a.account.id)).toHaveLength(1);
  });
});

describeEachDatabase('POST /router/add with a phone', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await setPlan(t(), a.account.id, 100);
  });

  it('binds a free phone with its app_bind_phone code', async () => {
    const mobile = freshMobile();
    const code = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone');
    const name = await addMember(t(), a.token, { area_code: '86', phone: mobile, code });
    expect(await rowOf(t(), a.account.id, name)).toMatchObject({ phone: `+86 ${mobile}`, area_number: '86' });
    const list = await t().call(listRouters, { token: a.token, query: { type: 2, search: mobile } });
    expect(list.data!.map((r) => [r.router_name, r.phone, r.area_number])).toEqual([[name, `+86 ${mobile}`, '86']]);
  });

  it('refuses a wrong code, a code of another purpose, or one sent to another phone; nothing is added', async () => {
    const mobile = freshMobile();
    const other = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_change_phone');
    const elsewhere = await memberCode(t(), a.token, `+86 ${freshMobile()}`, 'app_bind_phone');
    const before = await membersOf(t(), a.account.id);
    for (const code of [other, elsewhere]) {
      expect(await t().call(addRouter, { token: a.token, body: { router_type: 2, username: freshName(), password: 'pass1234', phone: mobile, code } })).toMatchObject({
        code: 422,
        msg: M.codeWrong,
      });
    }
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  });

  it('answers 401 for a phone another member holds, keeps the code, and type 2 moves the phone', async () => {
    const mobile = freshMobile();
    const phone = `+86 ${mobile}`;
    const first = await addMember(t(), a.token, { phone: mobile, code: await memberCode(t(), a.token, phone, 'app_bind_phone') });
    const code = await memberCode(t(), a.token, phone, 'app_bind_phone');
    const body = { router_type: 2, username: freshName('new'), password: 'pass1234', area_code: '86', phone: mobile, code };
    const before = await membersOf(t(), a.account.id);
    expect(await t().call(addRouter, { token: a.token, body })).toMatchObject({ code: CODE.flow401, msg: M.memberPhoneTaken });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
    // type 2 with the same (still unused) code: the phone moves to the new member.
    expect(await t().call(addRouter, { token: a.token, body: { ...body, type: 2 } })).toMatchObject({ code: 200 });
    expect(await rowOf(t(), a.account.id, body.username)).toMatchObject({ phone });
    expect(await rowOf(t(), a.account.id, first)).toMatchObject({ phone: null, area_number: null });
  });

  it('type 2 still needs a valid code', async () => {
    const mobile = freshMobile();
    await addMember(t(), a.token, { phone: mobile, code: await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone') });
    const before = await membersOf(t(), a.account.id);
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 2, username: freshName(), password: 'pass1234', phone: mobile, code: '000000', type: 2 } })).toMatchObject({
      code: 422,
      msg: M.codeWrong,
    });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  });

  it("a phone of another tenant's member is free here", async () => {
    const b = await newAccount(t());
    const mobile = freshMobile();
    await addMember(t(), b.token, { phone: mobile, code: await memberCode(t(), b.token, `+86 ${mobile}`, 'app_bind_phone') });
    await addMember(t(), a.token, { phone: mobile, code: await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone') });
  });

  it('a refusal that needs no code (a taken name) leaves the code usable', async () => {
    const taken = await addMember(t(), a.token);
    const mobile = freshMobile();
    const code = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone');
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 2, username: taken, password: 'pass1234', phone: mobile, code } })).toMatchObject({ msg: M.memberNameTaken });
    await addMember(t(), a.token, { phone: mobile, code });
  });
});
