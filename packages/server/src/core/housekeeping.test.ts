import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, signIn } from '../../test/helpers';
import { purgeRecoveries } from '../modules/auth/housekeeping';
import { purgeExpired, RETENTION, trimEvents } from './housekeeping';

const DAY = 24 * 3600_000;

describeEachDatabase('housekeeping jobs', (t) => {
  it('purges ended sessions, codes, mails, links and recoveries, and keeps what is live', async () => {
    const now = Date.now();
    const a = await newAccount(t());
    const live = await signIn(t(), a.username, a.password);
    expect(live.code).toBe(200);
    const sessions = await t().db.selectFrom('session').select('id').where('tenant_id', '=', a.account.id).execute();
    const [ended, revoked] = await Promise.all([signIn(t(), a.username, a.password), signIn(t(), a.username, a.password)]);
    expect([ended.code, revoked.code]).toEqual([200, 200]);
    const all = await t().db.selectFrom('session').select('id').where('tenant_id', '=', a.account.id).orderBy('create_time').execute();
    const fresh = all.filter((s) => !sessions.some((o) => o.id === s.id));
    await t().db.updateTable('session').set({ refresh_until: now - RETENTION.sessionsMs - 1 }).where('id', '=', fresh[0]!.id).execute();
    await t().db.updateTable('session').set({ revoked_at: now - RETENTION.sessionsMs - 1 }).where('id', '=', fresh[1]!.id).execute();

    await t().db
      .insertInto('verification_code')
      .values([
        { destination: 'gone@example.com', purpose: 'bind', code_hash: 'x', attempts: 0, create_time: now - 3 * DAY, expires_at: now - 2 * DAY, used_at: null },
        { destination: 'live@example.com', purpose: 'bind', code_hash: 'x', attempts: 0, create_time: now, expires_at: now + 600_000, used_at: null },
      ])
      .execute();
    await t().db
      .insertInto('recovery')
      .values([
        { id: `old-${now}`, account_id: a.account.id, verified_channel: null, create_time: now - 3 * DAY, expires_at: now - 2 * DAY },
        { id: `new-${now}`, account_id: a.account.id, verified_channel: null, create_time: now, expires_at: now + 600_000 },
      ])
      .execute();

    const deleted = await purgeExpired(t().ctx);
    expect(deleted.session).toBeGreaterThanOrEqual(2);
    expect(deleted.verification_code).toBeGreaterThanOrEqual(1);
    const left = await t().db.selectFrom('session').select('id').where('tenant_id', '=', a.account.id).execute();
    expect(left.map((s) => s.id).sort()).toEqual(sessions.map((s) => s.id).sort());
    const codes = await t().db.selectFrom('verification_code').select('destination').where('destination', 'in', ['gone@example.com', 'live@example.com']).execute();
    expect(codes).toEqual([{ destination: 'live@example.com' }]);

    expect(await purgeRecoveries(t().ctx)).toBeGreaterThanOrEqual(1);
    const recoveries = await t().db.selectFrom('recovery').select('id').where('account_id', '=', a.account.id).execute();
    expect(recoveries).toEqual([{ id: `new-${now}` }]);
  });

  it('trims old job runs and delivered events', async () => {
    const now = Date.now();
    await t().db
      .insertInto('job_run')
      .values([
        { job: 'core.old', job_id: '1', instance: 'x', outcome: 'ok', error: null, started_at: now - RETENTION.jobRunsMs - DAY, finished_at: now - RETENTION.jobRunsMs - DAY },
        { job: 'core.new', job_id: '2', instance: 'x', outcome: 'ok', error: null, started_at: now, finished_at: now },
      ])
      .execute();
    const deleted = await trimEvents(t().ctx);
    expect(deleted.job_run).toBe(1);
    expect(await t().db.selectFrom('job_run').select('job').where('job', 'like', 'core.%').execute()).toEqual([{ job: 'core.new' }]);
  });
});
