import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { LEVEL, logCapture } from '../../test/logLines';
import { until } from '../../test/until';
import { pathOf } from './requestLog';

const SLOW_MS = 20;
const { lines, logStream } = logCapture();
const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

it('a URL keeps only its path for the slow-request line', () => {
  expect(pathOf('/api/v1/router/traffic?token=abc&router_name=r1')).toBe('/api/v1/router/traffic');
  expect(pathOf('/api/v1/router/lists')).toBe('/api/v1/router/lists');
});

describeEachDatabase(
  'request log',
  (t) => {
    const get = async (url: string, token?: string) => {
      const res = await t().app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: res.statusCode, reqId: String(res.headers['x-request-id']) };
    };

    it('a normal request and a 4xx answer write nothing at info', async () => {
      const { token } = await newAccount(t());
      const normal = await get('/api/v1/probe/fast', token);
      expect(normal.status).toBe(200);
      const refused = await get('/api/v1/router/lists');
      expect(refused.status).toBe(401);
      // Lines come in order: once the 500 after them is logged, theirs would have been too.
      const marker = await get('/api/v1/probe/boom');
      await until(() => linesOf(marker.reqId).length > 0, 'the 500 is logged');
      for (const { reqId } of [normal, refused]) {
        // On a loaded machine the fast one may pass the threshold and be logged at warn; never at info.
        expect(linesOf(reqId).filter((l) => l.level <= LEVEL.info)).toEqual([]);
      }
    });

    it('a slow request is logged at warn with method, path, status and time, and no query', async () => {
      const { status, reqId } = await get('/api/v1/probe/slow?token=s3cret&x=1');
      expect(status).toBe(200);
      await until(() => linesOf(reqId).length > 0, 'the slow request is logged');
      const [line] = linesOf(reqId);
      expect(line).toMatchObject({ level: LEVEL.warn, msg: 'slow request', method: 'GET', url: '/api/v1/probe/slow', statusCode: 200 });
      expect(line!.responseTime).toBeGreaterThanOrEqual(SLOW_MS);
      expect(JSON.stringify(line)).not.toContain('s3cret');
    });

    it('a 500 is logged at error, with its secret parameters masked', async () => {
      const { status, reqId } = await get('/api/v1/probe/boom?token=s3cret');
      expect(status).toBe(500);
      await until(() => linesOf(reqId).some((l) => l.msg === 'request failed'), 'the 500 is logged');
      const failed = linesOf(reqId).find((l) => l.msg === 'request failed')!;
      expect(failed).toMatchObject({ level: LEVEL.error, res: { statusCode: 500 }, req: { method: 'GET', url: '/api/v1/probe/boom?token=[redacted]' } });
      expect(linesOf(reqId).find((l) => l.msg === 'unhandled error')).toMatchObject({ level: LEVEL.error });
      expect(JSON.stringify(linesOf(reqId))).not.toContain('s3cret');
    });
  },
  {
    config: { logLevel: 'info', slowRequestMs: SLOW_MS },
    logStream,
    beforeReady: (app) => {
      app.get('/api/v1/probe/fast', async () => ({ code: 200, msg: 'success' }));
      // Sleeps past the threshold: a lower bound, so the request is slow however loaded the machine.
      app.get('/api/v1/probe/slow', async () => {
        await sleep(SLOW_MS * 2);
        return { code: 200, msg: 'success' };
      });
      app.get('/api/v1/probe/boom', async () => {
        throw new Error('probe failure');
      });
    },
  },
);

describeEachDatabase(
  'request log at debug',
  (t) => {
    it('shows every request coming in and completed, 4xx included', async () => {
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/router/lists?token=s3cret' });
      expect(res.statusCode).toBe(401);
      const reqId = String(res.headers['x-request-id']);
      await until(() => linesOf(reqId).some((l) => l.msg === 'request completed'), 'the request is logged');
      expect(linesOf(reqId)).toMatchObject([
        { level: LEVEL.debug, msg: 'incoming request', req: { url: '/api/v1/router/lists?token=[redacted]' } },
        { level: LEVEL.debug, msg: 'request completed', res: { statusCode: 401 } },
      ]);
    });
  },
  { config: { logLevel: 'debug', slowRequestMs: 60_000 }, logStream },
);
