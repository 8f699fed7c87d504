import { accountInfo, changeRamPassword, M } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../../test/helpers';

describeEachDatabase('POST /ram/password', (t) => {
  it('changes a sub-account password, ends its sessions, and the new password signs in', async () => {
    const main = await newAccount(t());
    const ram = await newRamAccount(t(), main.account.id);
    const session = await signIn(t(), ram.login, ram.password, { ram: true });
    const token = session.data!.access_token;

    const res = await t().call(changeRamPassword, {
      token,
      body: { old_password: ram.password, password: 'newpass99', reset_password: 'newpass99' },
    });
    expect(res).toMatchObject({ code: 200, msg: M.modified });
    expect((await t().call(accountInfo, { token })).code).toBe(2001);
    expect((await signIn(t(), ram.login, ram.password, { ram: true })).msg).toBe(M.loginFailed);
    expect((await signIn(t(), ram.login, 'newpass99', { ram: true })).code).toBe(200);
  });

  it('refuses a wrong old password and bad input, changing nothing', async () => {
    const main = await newAccount(t());
    const ram = await newRamAccount(t(), main.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    const before = await t().db.selectFrom('ram_account').select('password_hash').where('id', '=', ram.id).executeTakeFirstOrThrow();

    const cases: [Record<string, string>, string][] = [
      [{ old_password: 'wrongpass', password: 'newpass99', reset_password: 'newpass99' }, M.oldPasswordWrong],
      [{ old_password: '', password: 'newpass99', reset_password: 'newpass99' }, M.oldPasswordRequired],
      [{ old_password: ram.password, password: '123', reset_password: '123' }, M.passwordLengthShort],
      [{ old_password: ram.password, password: 'newpass99', reset_password: 'newpass98' }, M.passwordMismatch],
    ];
    for (const [body, msg] of cases) {
      expect(await t().call(changeRamPassword, { token, body })).toMatchObject({ code: 422, msg });
    }
    const after = await t().db.selectFrom('ram_account').select('password_hash').where('id', '=', ram.id).executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
    expect((await t().call(accountInfo, { token })).code).toBe(200);
  });

  it('is not for main accounts', async () => {
    const main = await newAccount(t());
    const res = await t().call(changeRamPassword, {
      token: main.token,
      body: { old_password: main.password, password: 'newpass99', reset_password: 'newpass99' },
    });
    expect(res).toMatchObject({ code: 422, msg: M.ramPasswordOnly });
  });
});
