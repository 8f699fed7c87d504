import { defineEndpoint, M, noData, xlsxFile } from '@hublink/contract';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../test/helpers';
import type { Ctx } from './context';
import { ok } from './errors';
import { FileAnswer, route, type App } from './http';

/*
 * Each call answers what its contract says, and the compiler holds route() to it: every handler
 * marked @ts-expect-error below breaks its contract and must not compile (tsc -p packages/server fails
 * when one of them compiles after all). At runtime an answer is sent as the handler gave it: the
 * contract is checked by the compiler and by the test app (test/answerCheck.ts), never by a serializer.
 */
const seen = defineEndpoint({ path: '/probe/seen', method: 'GET', access: 'public', response: z.object({ seen: z.boolean() }) });
const done = defineEndpoint({ path: '/probe/done', method: 'POST', access: 'public', response: noData });
const page = defineEndpoint({ path: '/probe/page', method: 'GET', access: 'public', response: z.array(z.number()), paged: true });
const sheet = defineEndpoint({ path: '/probe/sheet', method: 'GET', access: 'public', response: xlsxFile });
const wrongType = defineEndpoint({ path: '/probe/wrong_type', method: 'GET', access: 'public', response: z.object({ seen: z.boolean() }) });
const extraKey = defineEndpoint({ path: '/probe/extra_key', method: 'GET', access: 'public', response: z.object({ seen: z.boolean() }) });

const file = () => new FileAnswer('a.xlsx', xlsxFile.file, Buffer.from('x'));

function probes(app: App, ctx: Ctx) {
  route(app, ctx, seen, async () => ok({ seen: true }));
  route(app, ctx, done, async () => ok(null, M.saved));
  route(app, ctx, page, async () => ok([1, 2], 'success', 7));
  route(app, ctx, sheet, async () => file());
  // @ts-expect-error the data has the wrong type
  route(app, ctx, wrongType, async () => ok({ seen: 'yes' }));
  // A key the schema does not declare compiles (TypeScript's types are open); the tests' call() refuses it.
  route(app, ctx, extraKey, async () => ok({ seen: true, secret: 'x' }));
}

/** Handlers that break their contract; never registered, only compiled. */
function _brokenAnswers(app: App, ctx: Ctx) {
  // @ts-expect-error the answer has no data
  route(app, ctx, seen, async () => ok(undefined));
  // @ts-expect-error the data lacks a key
  route(app, ctx, seen, async () => ok({}));
  // @ts-expect-error a call that answers no data answers null, nothing else
  route(app, ctx, done, async () => ok({ id: 1 }));
  // @ts-expect-error a paged list answers its count
  route(app, ctx, page, async () => ok([1, 2]));
  // @ts-expect-error a call that is not a paged list answers no count
  route(app, ctx, seen, async () => ok({ seen: true }, 'success', 1));
  // @ts-expect-error a download answers its file, not an envelope
  route(app, ctx, sheet, async () => ok(null));
  // @ts-expect-error only a download answers a file
  route(app, ctx, done, async () => file());
}

describeEachDatabase(
  'answers and their contract',
  (t) => {
    it('sends every answer as the handler gave it', async () => {
      // The test app's answer check (test/answerCheck.ts) replaces a drift with a 500 and keeps what the app sent.
      for (const path of [wrongType.path, extraKey.path]) await t().app.inject({ method: 'GET', url: `/api/v1${path}` });
      const sent = t().answerCheck.take().map((d) => JSON.parse(String(d.sent)) as unknown);
      expect(sent).toEqual([
        { code: 200, msg: 'success', data: { seen: 'yes' } },
        { code: 200, msg: 'success', data: { seen: true, secret: 'x' } },
      ]);
    });

    it("the tests' call() refuses an answer its contract does not allow, loudly", async () => {
      await expect(t().call(wrongType)).rejects.toThrow(`GET ${wrongType.path} answered data its contract does not allow`);
      await expect(t().call(extraKey)).rejects.toThrow(`GET ${extraKey.path} answered data its contract does not declare`);
    });

    it("the tests' call() takes answers that keep their contract", async () => {
      expect(await t().call(seen)).toMatchObject({ code: 200, data: { seen: true } });
      expect(await t().call(done)).toMatchObject({ code: 200, msg: M.saved, data: null });
      expect(await t().call(page)).toMatchObject({ code: 200, data: [1, 2], count: 7 });
      expect((await t().call(sheet)).file).toMatchObject({ filename: 'a.xlsx', contentType: xlsxFile.file });
    });
  },
  {
    beforeReady: async (app) => {
      await app.register(async (api) => probes(api as App, (app as App & { ctx: Ctx }).ctx), { prefix: '/api/v1' });
    },
  },
);
