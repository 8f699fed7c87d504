import { accountInfo } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';

describeEachDatabase('auth smoke', (t) => {
  it('registers, signs in and reads the user message', async () => {
    const a = await newAccount(t());
    const info = await t().call(accountInfo, { token: a.token });
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({ username: a.username, ram: 0, user_phone: a.verify, message_count: 0 });
  });
});
