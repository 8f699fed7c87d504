import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, sharedDatabase, type TestApp } from '../../test/helpers';
import { until } from '../../test/until';
import { nextRun } from './jobs';
import { defineModule } from './module';

/** The test's jobs: 'test.note' records where it ran; 'test.flaky' fails its first runs; 'test.hold' runs until it is told to stop. */
function testJobs() {
  const ran: { job: string; instance: string; id: string }[] = [];
  let flakyFailures = 0;
  const module = defineModule({
    name: 'jobtest',
    jobs: [
      {
        name: 'test.note',
        run: async ({ ctx, data }) => void ran.push({ job: 'note', instance: ctx.config.instance, id: String(data.id) }),
      },
      {
        name: 'test.flaky',
        retryLimit: 3,
        retryDelaySeconds: 0,
        run: async ({ ctx, data }) => {
          if (flakyFailures < Number(data.failures)) {
            flakyFailures++;
            throw new Error(`failure ${flakyFailures}`);
          }
          ran.push({ job: 'flaky', instance: ctx.config.instance, id: String(data.id) });
        },
      },
      {
        name: 'test.hold',
        run: async ({ ctx, data, signal }) => {
          ran.push({ job: 'hold', instance: ctx.config.instance, id: String(data.id) });
          await new Promise<void>((resolve, reject) => {
            if (data.finish === ctx.config.instance) return resolve();
            signal.addEventListener('abort', () => reject(new Error('stopped')));
          });
        },
      },
    ],
  });
  return { module, ran };
}

const runsOf = (t: TestApp, job: string) => t.db.selectFrom('job_run').select(['instance', 'outcome', 'error']).where('job', '=', job).orderBy('id').execute();

it('finds the next run of a schedule in the service’s time zone', () => {
  // 03:00 in Shanghai is 19:00 UTC the day before.
  const from = new Date('2026-11-22T12:00:00Z');
  expect(new Date(nextRun('0 3 * * *', 'Asia/Shanghai', from)).toISOString()).toBe('2026-11-22T19:00:00.000Z');
  expect(new Date(nextRun('17 * * * *', 'Asia/Shanghai', from)).toISOString()).toBe('2026-11-22T12:17:00.000Z');
});

for (const dialect of DATABASES) {
  describe(`jobs [${dialect}]`, () => {
    let shared: Awaited<ReturnType<typeof sharedDatabase>>;
    beforeAll(async () => {
      shared = await sharedDatabase(dialect);
    });
    afterAll(async () => {
      await shared?.drop();
    });

    const instance = (name: string, jobs: ReturnType<typeof testJobs>) =>
      createTestApp(dialect, { database: shared.open(), modules: [jobs.module], config: { runJobs: true, instance: name }, backbone: { jobPollSeconds: 0.5 } });

    it('runs a queued job, records the run, and retries a failing one', async () => {
      const jobs = testJobs();
      const t = await instance('solo', jobs);
      try {
        await t.ctx.jobs.send('test.note', { id: 'n1' });
        await t.ctx.jobs.send('test.flaky', { id: 'f1', failures: 2 });
        await until(() => jobs.ran.some((r) => r.job === 'flaky') && jobs.ran.some((r) => r.job === 'note'), 'both jobs ran');
        await until(async () => (await runsOf(t, 'test.flaky')).length === 3 && (await runsOf(t, 'test.flaky')).every((r) => r.outcome !== 'running'), 'the runs are recorded');
        expect(await runsOf(t, 'test.flaky')).toEqual([
          { instance: 'solo', outcome: 'failed', error: 'failure 1' },
          { instance: 'solo', outcome: 'failed', error: 'failure 2' },
          { instance: 'solo', outcome: 'ok', error: null },
        ]);
        await until(async () => (await runsOf(t, 'test.note'))[0]?.outcome === 'ok', 'the note run is recorded');
        await expect(t.ctx.jobs.send('test.nosuch')).rejects.toThrow('no job named test.nosuch');
      } finally {
        await t.close();
      }
    });

    it('runs a job of another name while a long one runs', async () => {
      const jobs = testJobs();
      // A database of its own: the long job stays queued when this instance stops.
      const t = await createTestApp(dialect, { modules: [jobs.module], config: { runJobs: true, instance: 'lanes' }, backbone: { jobPollSeconds: 0.5 } });
      try {
        await t.ctx.jobs.send('test.hold', { id: 'long', finish: 'nobody' });
        await until(() => jobs.ran.some((r) => r.id === 'long'), 'the long job runs');
        await t.ctx.jobs.send('test.note', { id: 'beside' });
        await until(() => jobs.ran.some((r) => r.id === 'beside'), 'the other job runs beside it');
      } finally {
        await t.close();
      }
    });

    it('hands a run cut short by stop to the next instance, which runs it', async () => {
      const jobsA = testJobs();
      const a = await instance('A', jobsA);
      await a.ctx.jobs.send('test.hold', { id: 'h1', finish: 'B' });
      await until(() => jobsA.ran.some((r) => r.id === 'h1'), 'A takes the job');
      await a.close();

      const jobsB = testJobs();
      const b = await instance('B', jobsB);
      try {
        await until(() => jobsB.ran.some((r) => r.id === 'h1'), 'B takes the job A gave back');
        await until(async () => (await runsOf(b, 'test.hold')).map((r) => `${r.instance}:${r.outcome}`).join() === 'A:given_back,B:ok', 'both runs are recorded');
      } finally {
        await b.close();
      }
    });

    if (dialect === 'postgres') {
      it('runs each job on exactly one of two instances, and moves a held job to the other when its instance stops', async () => {
        const jobsA = testJobs();
        const jobsB = testJobs();
        const a = await instance('A2', jobsA);
        const b = await instance('B2', jobsB);
        const closed = new Set<TestApp>();
        try {
          for (let i = 0; i < 12; i++) await a.ctx.jobs.send('test.note', { id: `p${i}` });
          await until(() => jobsA.ran.length + jobsB.ran.length >= 12, 'all 12 jobs ran');
          const ids = [...jobsA.ran, ...jobsB.ran].map((r) => r.id).sort();
          expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`).sort());

          await b.ctx.jobs.send('test.hold', { id: 'h2', finish: 'none' });
          await until(() => [...jobsA.ran, ...jobsB.ran].some((r) => r.id === 'h2'), 'one instance takes the held job');
          const holder = jobsA.ran.some((r) => r.id === 'h2') ? a : b;
          const other = holder === a ? b : a;
          const otherRan = holder === a ? jobsB.ran : jobsA.ran;
          expect(otherRan.some((r) => r.id === 'h2')).toBe(false);
          await holder.close();
          closed.add(holder);
          await until(() => otherRan.some((r) => r.id === 'h2'), 'the other instance takes the job that was given back');
          const runs = await runsOf(other, 'test.hold');
          const ofThisTest = runs.filter((r) => r.instance === 'A2' || r.instance === 'B2');
          expect(ofThisTest.filter((r) => r.outcome === 'given_back').map((r) => r.instance)).toEqual([holder === a ? 'A2' : 'B2']);
        } finally {
          for (const t of [a, b]) if (!closed.has(t)) await t.close();
        }
      });
    }
  });
}
