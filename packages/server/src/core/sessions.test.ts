import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, type TestApp } from '../../test/helpers';
import { authenticate } from './actor';
import { familyOf, revokeSessions } from './sessions';

describeEachDatabase('revokeSessions', (t) => {
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
    const row = await t().db.selectFrom('session').select(['id', 'refresh_until', 'family_id']).where('id', '=', end.sid).executeTakeFirstOrThrow();
    const raced = await t().ctx.tokens.issue(a.account.id, null, { refreshUntil: row.refresh_until, familyId: familyOf(row) });
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

  it("ends every account of a tenant, main and sub-accounts, and no other tenant's", async () => {
    const a = await newAccount(t());
    const other = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const [main, sub, elsewhere] = await Promise.all([
      t().ctx.tokens.issue(a.account.id, null),
      t().ctx.tokens.issue(a.account.id, ram.id),
      t().ctx.tokens.issue(other.account.id, null),
    ]);
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: 'every' });
    expect(await live(t(), [main.sid, sub.sid, elsewhere.sid])).toEqual({ [main.sid]: false, [sub.sid]: false, [elsewhere.sid]: true });
    for (const s of [main, sub]) await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${s.token}`)).rejects.toMatchObject({ code: 2001 });
  });
});

/** A session as a release before migration 0037 writes it during a rolling upgrade: no family. */
async function familyless(t: TestApp, tenantId: number) {
  const s = await t.ctx.tokens.issue(tenantId, null);
  await t.db.updateTable('session').set({ family_id: null }).where('id', '=', s.sid).execute();
  return s;
}

describeEachDatabase('a session without a family (written by the release before 0037)', (t) => {
  it('is a sign-in of its own: it works, and signing out ends it', async () => {
    const a = await newAccount(t());
    const s = await familyless(t(), a.account.id);
    await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${s.token}`)).resolves.toMatchObject({ sessionId: s.sid });
    await t().ctx.tokens.signOut(s.sid);
    await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${s.token}`)).rejects.toMatchObject({ code: 2001 });
  });

  it('refreshes into a chain it heads: signing out the new token ends the sign-in, and a token a racing refresh issues with it', async () => {
    const a = await newAccount(t());
    const s = await familyless(t(), a.account.id);
    const next = await t().ctx.tokens.refresh(s.sid);
    expect(await t().db.selectFrom('session').select('family_id').where('id', '=', next.sid).executeTakeFirstOrThrow()).toEqual({ family_id: s.sid });
    const row = await t().db.selectFrom('session').select('refresh_until').where('id', '=', s.sid).executeTakeFirstOrThrow();
    await t().ctx.tokens.signOut(next.sid);
    const raced = await t().ctx.tokens.issue(a.account.id, null, { refreshUntil: row.refresh_until, familyId: s.sid });
    for (const token of [next.token, raced.token]) await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${token}`)).rejects.toMatchObject({ code: 2001 });
  });

  it("ends with its account's sessions, and goes on when it is the one excepted", async () => {
    const a = await newAccount(t());
    const [keep, end] = [await familyless(t(), a.account.id), await familyless(t(), a.account.id)];
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: null }, { except: keep.sid });
    expect(await live(t(), [keep.sid, end.sid])).toEqual({ [keep.sid]: true, [end.sid]: false });
    await expect(authenticate(t().db, t().ctx.tokens, `Bearer ${end.token}`)).rejects.toMatchObject({ code: 2001 });

    // A new sign-in excepted: the familyless one ends with the rest.
    const fresh = await t().ctx.tokens.issue(a.account.id, null);
    await revokeSessions(t().db, { tenantId: a.account.id, ramId: null }, { except: fresh.sid });
    expect(await live(t(), [keep.sid, fresh.sid])).toEqual({ [keep.sid]: false, [fresh.sid]: true });
  });
});

/** Which of these sessions still live. */
async function live(t: TestApp, sids: string[]) {
  const rows = await t.db.selectFrom('session').select(['id', 'revoked_at']).where('id', 'in', sids).execute();
  return Object.fromEntries(sids.map((sid) => [sid, rows.find((r) => r.id === sid)?.revoked_at === null]));
}
