import { CODE, fmt, getLdapConfig, LDAP_PASSWORD_MASK, LDAP_SYNC_MODE, LIMITS, M, ldapSyncStatus, saveLdap, setLdapSyncMode, syncLdap } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withDirectory } from '../../domain/ldap';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { until } from '../../../test/until';
import { configOf, directoryOf, enableLdap, listing, verifiedDomain } from './fixtures';
import { queueDueSyncs } from './sync';

const MANY = 5000;

let s: Slapd;
let big: Slapd;
beforeAll(async () => {
  s = await startSlapd();
  // 5,000 users; the server gives at most 500 entries to a search that does not page (size.hard=500).
  big = await startSlapd({ users: Array.from({ length: MANY }, (_, i) => ({ uid: `user${String(i).padStart(5, '0')}`, description: `第${i}号` })) });
});
afterAll(async () => {
  await s?.stop();
  await big?.stop();
});

describeEachDatabase(
  'LDAP sync: the automatic mode’s job, one sync per tenant at a time, paged reads',
  (t) => {
    it('runs the sync of a tenant in automatic mode when its cycle has passed, through the backbone’s jobs', async () => {
      const a = await newAccount(t());
      const base = await directoryOf(s, [{ uid: 'vera' }]);
      await enableLdap(t(), a, s, { base_dn: base });
      // Manual mode: a pass of the job queues nothing for this tenant.
      await t().db.updateTable('ldap_config').set({ sync_due: 0 }).where('tenant_id', '=', a.account.id).execute();
      await t().ctx.jobs.send('ldap.sync-due');
      await until(async () => (await t().db.selectFrom('job_run').select('id').where('job', '=', 'ldap.sync-due').where('outcome', '=', 'ok').execute()).length > 0, 'a pass of ldap.sync-due');
      expect((await t().db.selectFrom('ldap_config').select('sync_due').where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow()).sync_due).toBe(0);

      expect((await t().call(setLdapSyncMode, { token: a.token, body: { sync_mode: LDAP_SYNC_MODE.automatic } })).code).toBe(200);
      const before = (await t().db.selectFrom('ldap_config').select('sync_time').where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow()).sync_time!;
      await s.addUser({ uid: 'wade', ou: base.slice(3, base.indexOf(',')) });
      // The minute's pass, without waiting for the minute.
      await t().ctx.jobs.send('ldap.sync-due');
      await until(async () => (await t().db.selectFrom('ldap_config').select('sync_time').where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow()).sync_time! > before, 'the automatic sync');
      expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['vera', 'wade']);
      const state = await t().db.selectFrom('ldap_config').select(['sync_due', 'sync_time', 'sync_status']).where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
      expect(state.sync_status).toBe(1);
      // The next one is due a cycle later, and a pass before then queues nothing.
      expect(state.sync_due).toBeGreaterThanOrEqual(state.sync_time! + LIMITS.ldapSyncCycleMinutes * 60_000 - 60_000);
      expect(await queueDueSyncs(t().ctx)).toBe(0);
      const status = (await t().call(ldapSyncStatus, { token: a.token })).data!;
      expect(status).toEqual({
        count: 2,
        service: { status: 1, update_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), cycle: LIMITS.ldapSyncCycleMinutes, operation_hours: expect.any(Number), message: '' },
      });
    });

    it('syncs every sync_cycle minutes the tenant chose, from 5 minutes to a day; other values are refused and change nothing', async () => {
      const a = await newAccount(t());
      const base = await directoryOf(s, [{ uid: 'quin' }]);
      await enableLdap(t(), a, s, { base_dn: base, sync_mode: LDAP_SYNC_MODE.automatic });
      const range = fmt(M.ldapSyncCycleRange, { min: LIMITS.ldapSyncCycleMin, max: LIMITS.ldapSyncCycleMax });
      const row = () => t().db.selectFrom('ldap_config').selectAll().where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
      const before = await row();
      for (const sync_cycle of [4, 0, 1441, 'abc', 7.5]) {
        const res = await t().call(saveLdap, { token: a.token, body: configOf(s, { base_dn: base, sync_mode: LDAP_SYNC_MODE.automatic, password: LDAP_PASSWORD_MASK, sync_cycle }) });
        expect({ sync_cycle, code: res.code, msg: res.msg }).toEqual({ sync_cycle, code: CODE.invalid, msg: range });
      }
      expect(await row()).toEqual(before);

      expect((await t().call(saveLdap, { token: a.token, body: configOf(s, { base_dn: base, sync_mode: LDAP_SYNC_MODE.automatic, password: LDAP_PASSWORD_MASK, sync_cycle: 5 }) })).code).toBe(200);
      expect((await t().call(getLdapConfig, { token: a.token })).data!.data).toMatchObject({ sync_cycle: 5 });
      expect((await t().call(ldapSyncStatus, { token: a.token })).data!.service.cycle).toBe(5);
      const saved = await row();
      // The save's sync set the next one a cycle after it; the job's passes before then queue nothing.
      expect(saved.sync_due - saved.sync_time!).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
      expect(saved.sync_due - saved.sync_time!).toBeLessThanOrEqual(5 * 60_000 + 1000);
      expect(await queueDueSyncs(t().ctx, saved.sync_due - 1)).toBe(0);
      // At the due time the pass queues it, and the job runs it (the clock of the pass stands 5 minutes on).
      await s.addUser({ uid: 'rosa', ou: base.slice(3, base.indexOf(',')) });
      expect(await queueDueSyncs(t().ctx, saved.sync_due)).toBe(1);
      await until(async () => (await row()).sync_time! > saved.sync_time!, 'the sync of the cycle');
      expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['quin', 'rosa']);
      expect((await row()).sync_cycle).toBe(5);
    });

    it('syncs one tenant at a time: a sync while another change holds the turn is refused (429) or, from the job, skipped', async () => {
      const a = await newAccount(t());
      await enableLdap(t(), a, s, { base_dn: await directoryOf(s, [{ uid: 'xena' }]) });
      const { hash } = await listing(t(), a.token);
      const turn = `ldap-turn:${a.account.id}`;
      await t().ctx.store.incr(turn, 60);
      try {
        expect(await t().call(syncLdap, { token: a.token, body: { hash } })).toMatchObject({ code: CODE.tooMany, msg: M.ldapSyncBusy });
        await t().db.updateTable('ldap_config').set({ sync_mode: LDAP_SYNC_MODE.automatic, sync_due: 0 }).where('tenant_id', '=', a.account.id).execute();
        const runs = async () => (await t().db.selectFrom('job_run').select(['id', 'outcome']).where('job', '=', 'ldap.sync').execute()).filter((r) => r.outcome !== 'running');
        const done = (await runs()).length;
        await t().ctx.jobs.send('ldap.sync-due');
        await until(async () => (await runs()).length > done, 'the skipped sync job');
        expect((await runs()).every((r) => r.outcome === 'ok')).toBe(true);
      } finally {
        await t().ctx.store.del(turn);
      }
      expect((await t().call(syncLdap, { token: a.token, body: { hash } })).code).toBe(200);
    });

    it(`reads ${MANY} users through pages of ${LIMITS.ldapPageSize}, writing each page as it comes`, async () => {
      // An unpaged read of this directory is refused by the server: only paging gets all of it.
      const unpaged = withDirectory({ allowPrivateTargets: true, timeoutMs: LIMITS.directoryTimeoutMs }, { host: big.host, port: big.port, security: 'plain' }, async (d) => {
        await d.bind(big.readerDn, big.readerPassword);
        return d.search(big.suffix, { scope: 'sub', filter: '(uid=*)', attributes: ['uid'] });
      });
      await expect(unpaged).rejects.toMatchObject({ kind: 'size_limit' });

      const a = await newAccount(t());
      await verifiedDomain(t(), a.account.id);
      const counts = new Set<number>();
      let saving = true;
      const save = t()
        .call(saveLdap, { token: a.token, body: configOf(big, { username: big.readerDn, password: big.readerPassword }) })
        .finally(() => (saving = false));
      // Watch the listing fill while the first sync reads the directory.
      while (saving) {
        const row = await t().db.selectFrom('ldap_user').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
        counts.add(Number(row.n));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect((await save).code).toBe(200);
      const seen = [...counts].sort((x, y) => x - y);
      // Rows arrive a page at a time: every count seen on the way is a whole number of pages.
      expect(seen.every((n) => n % LIMITS.ldapPageSize === 0)).toBe(true);
      expect(seen.filter((n) => n > 0 && n < MANY).length).toBeGreaterThan(0);
      expect((await t().call(ldapSyncStatus, { token: a.token })).data!.count).toBe(MANY);
      const page = await listing(t(), a.token, { page: 50, limit: 100 });
      expect([page.count, page.users.at(-1)!.username]).toEqual([MANY, 'user04999']);
    });
  },
  { config: { runJobs: true }, backbone: { jobPollSeconds: 0.5 } },
);
