import { CODE, M, routerPhone } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { addMember, freshMobile, memberCode, membersOf } from './fixtures';
import { memberProofKey } from './phone';

type Main = Awaited<ReturnType<typeof newAccount>>;

const rowOf = (t: TestApp, tenantId: number, name: string) =>
  t.db.selectFrom('member').selectAll().where('tenant_id', '=', tenantId).where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow();

describeEachDatabase('POST /router/phone', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: 100 }).where('id', '=', a.account.id).execute();
  });

  /** A software member with a phone bound through /router/add. */
  async function memberWithPhone() {
    const mobile = freshMobile();
    const phone = `+86 ${mobile}`;
    const name = await addMember(t(), a.token, { phone: mobile, code: await memberCode(t(), a.token, phone, 'app_bind_phone') });
    return { name, mobile, phone };
  }

  /** type 2 with an app_change_phone code sent to the member's current phone. */
  async function proveOld(name: string, phone: string) {
    const code = await memberCode(t(), a.token, phone, 'app_change_phone');
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 2, code } })).toMatchObject({ code: 200, msg: M.memberPhoneVerified });
  }

  it('binds a first phone with an app_bind_phone code (type 1)', async () => {
    const name = await addMember(t(), a.token);
    const mobile = freshMobile();
    const code = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone');
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 1, area_code: '86', phone: mobile, code } })).toMatchObject({ code: 200, msg: M.bound });
    expect(await rowOf(t(), a.account.id, name)).toMatchObject({ phone: `+86 ${mobile}`, area_number: '86' });
  });

  it('answers 401 while the member has a phone, then changes it after the old phone is proven (type 2)', async () => {
    const m = await memberWithPhone();
    const mobile = freshMobile();
    const code = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone');
    const body = { router_name: m.name, type: 1, area_code: '86', phone: mobile, code };
    const before = await membersOf(t(), a.account.id);
    expect(await t().call(routerPhone, { token: a.token, body })).toMatchObject({ code: CODE.flow401, msg: M.memberPhoneBoundVerify, status: 200 });
    expect(await membersOf(t(), a.account.id)).toEqual(before);

    await proveOld(m.name, m.phone);
    expect(await rowOf(t(), a.account.id, m.name)).toMatchObject({ phone: m.phone });
    // The bind code is still good: the 401 did not use it. The proof serves once.
    expect(await t().call(routerPhone, { token: a.token, body })).toMatchObject({ code: 200, msg: M.bound });
    expect(await rowOf(t(), a.account.id, m.name)).toMatchObject({ phone: `+86 ${mobile}` });
    const row = await rowOf(t(), a.account.id, m.name);
    expect(await t().ctx.store.get(memberProofKey(a.account.id, row.id))).toBeNull();
  });

  it("a proof is for that member only", async () => {
    const m1 = await memberWithPhone();
    const m2 = await memberWithPhone();
    await proveOld(m1.name, m1.phone);
    const mobile = freshMobile();
    const code = await memberCode(t(), a.token, `+86 ${mobile}`, 'app_bind_phone');
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: m2.name, type: 1, phone: mobile, code } })).toMatchObject({ code: CODE.flow401 });
  });

  it('type 2 refuses a wrong code, a code of another purpose, and a member without a phone', async () => {
    const m = await memberWithPhone();
    const bindCode = await memberCode(t(), a.token, m.phone, 'app_bind_phone');
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: m.name, type: 2, code: bindCode } })).toMatchObject({ code: 422, msg: M.codeWrong });
    const row = await rowOf(t(), a.account.id, m.name);
    expect(await t().ctx.store.get(memberProofKey(a.account.id, row.id))).toBeNull();
    const bare = await addMember(t(), a.token);
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: bare, type: 2, code: '123456' } })).toMatchObject({ code: 422, msg: M.phoneNotBound });
  });

  it('unbinds with empty values only after the old phone is proven (403 before)', async () => {
    const m = await memberWithPhone();
    const unbind = { router_name: m.name, type: 1, area_code: '', phone: '', code: '' };
    const before = await membersOf(t(), a.account.id);
    expect(await t().call(routerPhone, { token: a.token, body: unbind })).toMatchObject({ code: CODE.flow403, msg: M.memberPhoneUnbindVerify });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
    await proveOld(m.name, m.phone);
    expect(await t().call(routerPhone, { token: a.token, body: unbind })).toMatchObject({ code: 200, msg: M.unbound });
    expect(await rowOf(t(), a.account.id, m.name)).toMatchObject({ phone: null, area_number: null });
    expect(await t().call(routerPhone, { token: a.token, body: unbind })).toMatchObject({ code: 422, msg: M.phoneNotBound });
  });

  it("refuses another member's phone and the member's own phone", async () => {
    const holder = await memberWithPhone();
    const name = await addMember(t(), a.token);
    const code = await memberCode(t(), a.token, holder.phone, 'app_bind_phone');
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 1, phone: holder.mobile, code } })).toMatchObject({ code: 422, msg: M.memberPhoneInUse });
    const m = await memberWithPhone();
    await proveOld(m.name, m.phone);
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: m.name, type: 1, phone: m.mobile, code: '123456' } })).toMatchObject({ code: 422, msg: M.phoneSame });
  });

  it('checks the fields: phone pattern, code required and 6 long', async () => {
    const name = await addMember(t(), a.token);
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 1, phone: '1234', code: '123456' } })).toMatchObject({ code: 422, msg: M.mobileInvalid });
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 1, phone: '13712345678' } })).toMatchObject({ code: 422, msg: M.bindCodeRequired });
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 2, code: '123' } })).toMatchObject({ code: 422, msg: '验证码长度必须为6位' });
    // Proving the old phone (the phone change of spec 3 §5): an empty code is '验证码不能为空'.
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 2, code: '' } })).toMatchObject({ code: 422, msg: '验证码不能为空' });
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: name, type: 2 } })).toMatchObject({ code: 422, msg: '验证码不能为空' });
  });

  it('software members only; an unknown member is 204', async () => {
    const hw = await addMember(t(), a.token, { router_type: 1 });
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: hw, type: 1, phone: '13712345678', code: '123456' } })).toMatchObject({ code: 422, msg: M.memberSoftwareOnly });
    expect(await t().call(routerPhone, { token: a.token, body: { router_name: 'nosuch', type: 1, phone: '13712345678', code: '123456' } })).toMatchObject({ code: 204, msg: M.memberNotFound });
  });
});
