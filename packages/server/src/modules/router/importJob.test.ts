import { batchAddRouters, batchStatus, IMPORT_COLUMNS, IMPORT_STATE, LIMITS, M } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, describeEachDatabase, newAccount, sharedDatabase, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/until';
import { JobStopped } from '../../core/jobs';
import { hashConcurrency } from '../../core/passwords';
import { freshName, imported, membersOf, statusOf, upload, workbook } from './fixtures';
import { runImport } from './importJob';
import { sweepImports } from './importStatus';

const setPlan = (t: TestApp, tenantId: number, count: number) => t.db.updateTable('account').set({ network_router_count: count }).where('id', '=', tenantId).execute();
const fileOf = async (rows: (string | number | null)[][]) => ({ filename: 'import.xlsx', body: await workbook(IMPORT_COLUMNS, rows) });
const namesFor = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${freshName(prefix)}x${i}`);
const importRow = (t: TestApp, id: number) => t.db.selectFrom('member_import').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

// These apps run no jobs: each test runs the import's job itself (runImport), where it wants to look.
describeEachDatabase('the import job: progress, resume, one import at a time, tenant isolation', (t) => {
  it('answers at once with an id; the status shows the progress, then the result rows in order', async () => {
    const a = await newAccount(t());
    await setPlan(t(), a.account.id, 1000);
    const names = namesFor(250, 'pg');
    // Every 10th row breaks a rule: the refusals are counted as the job goes.
    const rows = names.map((n, i) => (i % 10 === 9 ? [n, '123'] : [n, 'pass1234']));
    const started = await upload(t(), batchAddRouters.path, a.token, await fileOf(rows));
    expect(started).toMatchObject({ code: 200, msg: M.importStarted, data: { id: expect.any(Number) } });
    const id = started.data!.id;
    expect(await statusOf(t(), a.token, id)).toEqual({ id, state: IMPORT_STATE.running, total: 250, done: 0, fail: 0, result: { success: 0, fail: 0, rows: [] } });
    expect(await statusOf(t(), a.token)).toMatchObject({ id, state: IMPORT_STATE.running });

    // Stopped once a step is in: the import stays running part-way, with what it added and refused so far.
    const abort = new AbortController();
    const run = runImport(t().ctx, id, abort.signal);
    await until(async () => (await importRow(t(), id)).done > 0, 'a first step');
    abort.abort();
    await expect(run).rejects.toBeInstanceOf(JobStopped);
    const part = (await statusOf(t(), a.token, id))!;
    expect(part).toMatchObject({ state: IMPORT_STATE.running, total: 250 });
    expect(part.done).toBeGreaterThan(0);
    expect(part.done).toBeLessThan(250);
    expect(part.fail).toBe(part.done / 10);
    // Every row refused so far is there while it runs (a dialog opened again mid-run shows them), no added one.
    expect(part.result).toEqual({
      success: part.done - part.fail,
      fail: part.fail,
      rows: rows.slice(0, part.done).flatMap((r, i) => (i % 10 === 9 ? [{ row: i + 2, router_name: r[0], ok: false, msg: M.importPasswordRule }] : [])),
    });
    expect(await membersOf(t(), a.account.id)).toHaveLength(part.done - part.fail);

    // Resumed: it goes on from the first row not done, and adds no row twice.
    await runImport(t().ctx, id, new AbortController().signal);
    const end = (await statusOf(t(), a.token, id))!;
    expect(end).toMatchObject({ id, state: IMPORT_STATE.done, total: 250, done: 250, fail: 25 });
    expect(end.result).toMatchObject({ success: 225, fail: 25 });
    expect(end.result!.rows).toEqual(rows.map((r, i) => ({ row: i + 2, router_name: r[0], ok: i % 10 !== 9, msg: i % 10 === 9 ? M.importPasswordRule : M.importAdded })));
    expect(await membersOf(t(), a.account.id)).toHaveLength(225);
    // The uploaded file is removed once the import ended.
    expect(await t().ctx.storage.get(a.account.id, (await importRow(t(), id)).file_key)).toBeNull();
    // A second run of an ended import does nothing.
    await runImport(t().ctx, id, new AbortController().signal);
    expect(await membersOf(t(), a.account.id)).toHaveLength(225);
  }, 120_000);

  it('refuses a second import of the tenant while one runs (429), not another tenant’s; a lost one frees the tenant after the lease', async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    const first = await upload(t(), batchAddRouters.path, a.token, await fileOf([[freshName('one'), 'pass1234']]));
    expect(first.code).toBe(200);
    const second = await fileOf([[freshName('two'), 'pass1234']]);
    expect(await upload(t(), batchAddRouters.path, a.token, second)).toEqual({ code: 429, msg: M.importBusy });
    // The file-level checks still come first.
    expect(await upload(t(), batchAddRouters.path, a.token, { filename: 'x.csv', body: second.body })).toEqual({ code: 422, msg: M.fileFormatWrong });
    expect((await upload(t(), batchAddRouters.path, b.token, second)).code).toBe(200);

    // The first one's job went quiet for longer than the lease: it reads as failed, and the tenant may import again.
    await t().db.updateTable('member_import').set({ heartbeat_at: Date.now() - LIMITS.importLeaseSeconds * 1000 - 1 }).where('id', '=', first.data!.id).execute();
    expect(await statusOf(t(), a.token, first.data!.id)).toMatchObject({ state: IMPORT_STATE.failed, done: 0, result: { success: 0, fail: 0, rows: [] } });
    const again = await upload(t(), batchAddRouters.path, a.token, second);
    expect(again.code).toBe(200);
    expect(await importRow(t(), first.data!.id)).toMatchObject({ state: IMPORT_STATE.failed });
    // Should the lost job wake up after all, it finds its import taken over and adds nothing.
    await runImport(t().ctx, first.data!.id, new AbortController().signal);
    await runImport(t().ctx, again.data!.id, new AbortController().signal);
    expect((await membersOf(t(), a.account.id)).map((m) => m.router_name)).toEqual([(await statusOf(t(), a.token))!.result!.rows[0]!.router_name]);
  }, 60_000);

  it("keeps each tenant's imports to itself: another tenant's id is not found, its latest is its own", async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    expect(await t().call(batchStatus, { token: b.token })).toMatchObject({ code: 200, data: null });
    const mine = await upload(t(), batchAddRouters.path, a.token, await fileOf([[freshName('iso'), 'pass1234']]));
    await runImport(t().ctx, mine.data!.id, new AbortController().signal);
    expect(await t().call(batchStatus, { token: b.token, query: { id: mine.data!.id } })).toEqual({ code: 204, msg: M.notFound, status: 200 });
    expect(await t().call(batchStatus, { token: b.token })).toMatchObject({ code: 200, data: null });
    expect(await t().call(batchStatus, { token: a.token, query: { id: mine.data!.id + 1000 } })).toMatchObject({ code: 204 });
    expect(await statusOf(t(), a.token)).toMatchObject({ id: mine.data!.id, state: IMPORT_STATE.done, result: { success: 1 } });
    expect(await t().call(batchStatus, { token: a.token, query: { id: 'x' } })).toMatchObject({ code: 422 });
  });

  it('a failing run ends its import as failed, with the rows it did; the sweep removes ended imports after the days kept', async () => {
    const a = await newAccount(t());
    const started = await upload(t(), batchAddRouters.path, a.token, await fileOf([[freshName('gone'), 'pass1234']]));
    const id = started.data!.id;
    // The file went missing from storage: nothing can be read, the import fails at once.
    await t().ctx.storage.delete(a.account.id, (await importRow(t(), id)).file_key);
    await expect(runImport(t().ctx, id, new AbortController().signal)).rejects.toThrow();
    expect(await statusOf(t(), a.token, id)).toMatchObject({ state: IMPORT_STATE.failed, done: 0, result: { rows: [] } });

    await sweepImports(t().ctx);
    expect(await statusOf(t(), a.token, id)).toMatchObject({ id });
    await sweepImports(t().ctx, Date.now() + LIMITS.importKeepDays * 24 * 3600 * 1000 + 1);
    expect(await statusOf(t(), a.token)).toBeNull();
  });
});

describe('hashConcurrency: a hash per core, within the pool threads file I/O does not need', () => {
  it('sizes to the cores and the pool', () => {
    expect(hashConcurrency({}, 2)).toBe(2);
    expect(hashConcurrency({}, 8)).toBe(2);
    expect(hashConcurrency({ UV_THREADPOOL_SIZE: '10' }, 8)).toBe(8);
    expect(hashConcurrency({ UV_THREADPOOL_SIZE: '2' }, 8)).toBe(1);
  });
});

// The upload is taken by one instance, the job run by another that shares the database and storage.
for (const dialect of DATABASES) {
  describe(`the import job on another instance [${dialect}]`, () => {
    let shared: Awaited<ReturnType<typeof sharedDatabase>>;
    let web: TestApp;
    let worker: TestApp;

    beforeAll(async () => {
      shared = await sharedDatabase(dialect);
      web = await createTestApp(dialect, { database: shared.open() });
      worker = await createTestApp(dialect, { database: shared.open(), config: { runJobs: true }, backbone: { jobPollSeconds: 0.5 } });
    });
    afterAll(async () => {
      await web?.close();
      await worker?.close();
      await shared?.drop();
    });

    it('adds the rows uploaded to the instance that runs no jobs', async () => {
      const a = await newAccount(web);
      const [n1, n2] = namesFor(2, 'far');
      const res = await imported(web, a.token, await fileOf([[n1!, 'pass1234'], [n2!, 'x']]));
      expect(res.data).toEqual({
        success: 1,
        fail: 1,
        rows: [
          { row: 2, router_name: n1, ok: true, msg: M.importAdded },
          { row: 3, router_name: n2, ok: false, msg: M.importPasswordRule },
        ],
      });
      expect((await membersOf(web, a.account.id)).map((m) => m.router_name)).toEqual([n1]);
    }, 120_000);
  });
}
