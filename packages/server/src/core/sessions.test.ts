import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, type TestApp } from '../../test/helpers';
import { authenticate } from './actor';
import { revokeSessions } from './sessions';

describeEachDatabase('revokeSessions', (t) => {
  /** Which of these sessions still live. */
  const live = async (t: TestApp, sids: string[]) => {
    const rows = await t.db.selectFrom('session').select(['id', 'revoked_at']).where('id', 'in', sids).execute();
    return Object.fromEntries(sids.map((sid) => [sid, rows.find((r) => r.id === sid)?.revoked_at === null]));
  };

  it("ends one account's sessions but the one excepted, and no other account's", async () => {
    const a = await newAccount(t());
    const other = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const [keep, end, sub, elsewhere] = await Promise.all([
      t().ctx.tokens.issue(a.account.id, null),
      t().ctx.tokens.issue(a.account.id, null),
      t().ctx.tokens.issue(a.account.id, ram.id),
      t().ctx.tokens.issue(other.account.id, null),
    ]);
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: null }, { except: keep.sid });
    expect(await live(t(), [keep.sid, end.sid, sub.sid, elsewhere.sid])).toEqual({ [keep.sid]: true, [end.sid]: false, [sub.sid]: true, [elsewhere.sid]: true });

    await revokeSessions(t().db, { tenantId: a.account.id, ramId: ram.id });
    expect(await live(t(), [keep.sid, sub.sid])).toEqual({ [keep.sid]: true, [sub.sid]: false });
  });

  it('ends the sign-ins too: a token a racing refresh issues afterwards is refused; the excepted sign-in goes on', async () => {
    const a = await newAccount(t());
    const [keep, end] = await Promise.all([t().ctx.tokens.issue(a.account.id, null), t().ctx.tokens.issue(a.account.id, null)]);
    const kept = await t().ctx.tokens.refresh(keep.sid);
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: null }, { except: kept.sid });
    // A refresh of `end` that had read its row before the revoke, issuing now.
    const row = await t().db.selectFrom('session').select(['refresh_until', 'family_id']).where('id', '=', end.sid).executeTakeFirstOrThrow();
    const raced = await t().ctx.tokens.issue(a.account.id, null, { refreshUntil: row.refresh_until, familyId: row.family_id });
    await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${raced.token}`)).rejects.toMatchObject({ code: 2001 });
    await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${kept.token}`)).resolves.toMatchObject({ sessionId: kept.sid });
  });

  it('leaves a session that had ended as it was', async () => {
    const a = await newAccount(t());
    const s = await t().ctx.tokens.issue(a.account.id, null);
    await t().db.updateTable('session').set({ revoked_at: 1000 }).where('id', '=', s.sid).execute();
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: null });
    expect(await t().db.selectFrom('session').select('revoked_at').where('id', '=', s.sid).executeTakeFirstOrThrow()).toEqual({ revoked_at: 1000 });
  });
});
