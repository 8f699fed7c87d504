import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/helpers';
import { GroupCommit } from './groupCommit';

/** Rows in outbox stand for any write; a recipient named 'bad' fails after its row was written. */
describeEachDatabase('group commit', (t) => {
  const rowsOf = async (prefix: string) =>
    (await t().db.selectFrom('outbox').select('recipient').where('recipient', 'like', `${prefix}%`).orderBy('id').execute()).map((r) => r.recipient);

  it('commits what callers queue together, in order, at most 200 a transaction, each caller told when its item is in', async () => {
    const transactions = new Set<unknown>();
    const group = new GroupCommit<string>(t().db, async (trx, recipient) => {
      transactions.add(trx);
      await trx.insertInto('outbox').values({ channel: 'sms', recipient, subject: '', body: '', code: '', status: 'sent', error: null, create_time: 0 }).execute();
    });
    const names = Array.from({ length: 300 }, (_, i) => `gc-a-${i}`);
    await Promise.all(names.map((n) => group.run(n)));
    expect(await rowsOf('gc-a-')).toEqual(names);
    expect(transactions.size).toBe(2);
  });

  it('a failing item fails alone: the others of its group are written, its own write is rolled back', async () => {
    const group = new GroupCommit<string>(t().db, async (trx, recipient) => {
      await trx.insertInto('outbox').values({ channel: 'sms', recipient, subject: '', body: '', code: '', status: 'sent', error: null, create_time: 0 }).execute();
      if (recipient === 'gc-b-bad') throw new Error('refused');
    });
    const first = group.run('gc-b-first');
    const results = await Promise.allSettled(['gc-b-1', 'gc-b-bad', 'gc-b-2'].map((n) => group.run(n)));
    await first;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await rowsOf('gc-b-')).toEqual(['gc-b-first', 'gc-b-1', 'gc-b-2']);
  });
});
