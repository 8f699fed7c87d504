import { CODE, defineEndpoint, endpointUrl, noData, xlsxFile } from '@hublink/contract';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../test/helpers';
import type { Ctx } from './context';
import { ok } from './errors';
import { FileAnswer, RedirectAnswer, route, type App } from './http';

/*
 * The test app holds every answer of a call of the contract to its contract (test/answerCheck.ts),
 * whoever made the request: answers that drift from their contract, planted here, are caught through
 * the tests' call() and through a raw app.inject alike, and fail the test that made them unless it
 * takes them.
 */
const seenData = z.object({ seen: z.boolean() });
const kept = defineEndpoint({ path: '/drift/kept', method: 'GET', access: 'public', response: seenData });
const extraKey = defineEndpoint({ path: '/drift/extra_key', method: 'GET', access: 'public', response: seenData });
const wrongType = defineEndpoint({ path: '/drift/wrong_type', method: 'POST', access: 'public', response: z.object({ items: z.array(seenData) }) });
const countless = defineEndpoint({ path: '/drift/countless', method: 'GET', access: 'public', response: z.array(z.number()), paged: true });
const fileInstead = defineEndpoint({ path: '/drift/file_instead', method: 'GET', access: 'public', response: noData });
const redirectInstead = defineEndpoint({ path: '/drift/redirect_instead', method: 'GET', access: 'public', response: noData });
const envelopeInstead = defineEndpoint({ path: '/drift/envelope_instead', method: 'GET', access: 'public', response: xlsxFile });
const refused = defineEndpoint({ path: '/drift/refused', method: 'GET', access: 'public', response: seenData });
const late = defineEndpoint({ path: '/drift/late', method: 'GET', access: 'public', response: seenData, paged: true });

/** Handlers that break their contract in ways TypeScript lets through (or is told to): the check is the only one to see them. */
function drifting(app: App, ctx: Ctx) {
  route(app, ctx, kept, async () => ok({ seen: true }));
  route(app, ctx, extraKey, async () => ok({ seen: true, secret: 'x' }));
  route(app, ctx, wrongType, async () => ok({ items: [{ seen: true }, { seen: 'yes' as unknown as boolean }] }));
  route(app, ctx, countless, async () => ok([1, 2]) as never);
  route(app, ctx, fileInstead, async () => new FileAnswer('a.xlsx', xlsxFile.file, Buffer.from('x')) as never);
  route(app, ctx, redirectInstead, async () => new RedirectAnswer('https://example.com/') as never);
  route(app, ctx, envelopeInstead, async () => ok(null) as never);
  // A refusal is an envelope of its own: only a successful one is held to the data schema.
  route(app, ctx, refused, async () => ({ code: CODE.invalid, msg: 'no', data: { anything: 1 } }) as never);
}

describeEachDatabase(
  "the test app's answer check",
  (t) => {
    it('lets answers that keep their contract through, as they were', async () => {
      expect(await t().call(kept)).toMatchObject({ status: 200, code: 200, data: { seen: true } });
      expect((await t().app.inject({ method: 'GET', url: endpointUrl(kept) })).json()).toEqual({ code: 200, msg: 'success', data: { seen: true } });
      expect((await t().app.inject({ method: 'GET', url: endpointUrl(refused) })).json()).toMatchObject({ code: CODE.invalid, data: { anything: 1 } });
      expect(t().answerCheck.take()).toEqual([]);
    });

    it("call() throws a drift of its answer, naming the call and what broke", async () => {
      await expect(t().call(extraKey)).rejects.toThrow(`GET ${extraKey.path} answered data its contract does not declare:\ndata.secret is not declared`);
      await expect(t().call(wrongType)).rejects.toThrow(`POST ${wrongType.path} answered data its contract does not allow`);
      await expect(t().call(countless)).rejects.toThrow(`GET ${countless.path} is a paged list and answered no count`);
      await expect(t().call(fileInstead)).rejects.toThrow(`GET ${fileInstead.path} answered a file; its contract says an envelope`);
      await expect(t().call(redirectInstead)).rejects.toThrow(`GET ${redirectInstead.path} answered a redirect; its contract says an envelope`);
      await expect(t().call(envelopeInstead)).rejects.toThrow(`GET ${envelopeInstead.path} answered an envelope; its contract says a file`);
      // call() took what it threw: nothing is left to fail the test.
      expect(t().answerCheck.take()).toEqual([]);
    });

    it('a raw app.inject gets an HTTP 500 envelope naming the drift, which is recorded with what the handler answered', async () => {
      const res = await t().app.inject({ method: 'GET', url: endpointUrl(extraKey) });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: CODE.internal, msg: expect.stringContaining(`GET /api/v1${extraKey.path} broke its contract`) as unknown });
      expect(res.json<{ msg: string }>().msg).toContain('data.secret is not declared');
      const file = await t().app.inject({ method: 'GET', url: endpointUrl(fileInstead) });
      expect(file.statusCode).toBe(500);
      expect(file.headers['content-disposition']).toBeUndefined();
      const post = await t().app.inject({ method: 'POST', url: endpointUrl(wrongType), payload: {} });
      expect(post.json()).toMatchObject({ code: CODE.internal, msg: expect.stringContaining('answered data its contract does not allow') as unknown });
      const drifts = t().answerCheck.take();
      expect(drifts.map((d) => d.call)).toEqual([`GET /api/v1${extraKey.path}`, `GET /api/v1${fileInstead.path}`, `POST /api/v1${wrongType.path}`]);
      // The app itself sent the answer as the handler gave it (production has no such check: core/answers.test.ts).
      expect(JSON.parse(String(drifts[0]!.sent))).toEqual({ code: 200, msg: 'success', data: { seen: true, secret: 'x' } });
    });

    // The test passes because the drift it leaves fails it when it finishes.
    it.fails('a drift a test leaves untaken fails that test', async () => {
      expect((await t().app.inject({ method: 'GET', url: endpointUrl(countless) })).statusCode).toBe(500);
    });

    it('holds routes registered after the check was installed too', async () => {
      await expect(t().call(late)).rejects.toThrow(`GET ${late.path} is a paged list and answered no count`);
      expect((await t().app.inject({ method: 'GET', url: endpointUrl(late) })).statusCode).toBe(500);
      expect(t().answerCheck.take().map((d) => d.call)).toEqual([`GET /api/v1${late.path}`]);
    });

    it('a drift nobody took is thrown when the app closes', async () => {
      await t().app.inject({ method: 'GET', url: endpointUrl(extraKey) });
      expect(() => t().answerCheck.assertNone()).toThrow(`GET /api/v1${extraKey.path}: GET ${extraKey.path} answered data its contract does not declare`);
      expect(t().answerCheck.take()).toEqual([]);
    });
  },
  {
    // The module's routes are registered by buildApp, before createTestApp installs the check.
    modules: [{ name: 'drifting', routes: drifting }],
    beforeReady: async (app) => {
      await app.register(async (api) => route(api as App, (app as App & { ctx: Ctx }).ctx, late, async () => ok({ seen: true }) as never), { prefix: '/api/v1' });
    },
  },
);
