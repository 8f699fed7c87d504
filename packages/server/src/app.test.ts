import { CODE, M } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { ApiError } from './core/errors';
import { createTestApp, describeEachDatabase, type TestApp } from '../test/helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDatabase(
  'envelope and errors',
  (t) => {
    it('an unknown /api path answers a 404 envelope', async () => {
      for (const url of ['/api/v1/no/such/call', '/api/nothing', '/api/v1/login/authorization?x=1']) {
        const method = url.includes('authorization') ? 'GET' : 'POST';
        const res = await t().app.inject({ method, url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ code: 404, msg: M.apiNotFound });
        expect(res.headers['x-request-id']).toMatch(UUID);
      }
    });

    it('malformed JSON answers 422 with a plain message', async () => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/v1/login/authorization',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "abc", ',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: CODE.invalid, msg: M.validationFailed });
    });

    it('a body of the wrong type answers 422', async () => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/v1/login/authorization',
        headers: { 'content-type': 'application/xml' },
        payload: '<login/>',
      });
      expect(res.json()).toEqual({ code: CODE.invalid, msg: M.validationFailed });
      const array = await t().app.inject({ method: 'POST', url: '/api/v1/login/authorization', payload: [1, 2] });
      expect(array.json()).toMatchObject({ code: CODE.invalid });
    });

    it('an unexpected error answers 500 with the generic message and the request id, and no details', async () => {
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/test/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: CODE.internal, msg: M.internalError });
      expect(res.body).not.toContain('secret detail');
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('a refusal thrown by a service keeps its code, with the HTTP status of DESIGN §4', async () => {
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/test/refuse' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: CODE.tokenExpired, msg: M.tokenExpired });
    });

    it('every answer carries a distinct x-request-id', async () => {
      const a = await t().app.inject({ method: 'GET', url: '/api/v1/verify/code' });
      const b = await t().app.inject({ method: 'GET', url: '/api/v1/verify/code' });
      expect(a.headers['x-request-id']).toMatch(UUID);
      expect(b.headers['x-request-id']).toMatch(UUID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
  },
  {
    beforeReady: (app) => {
      app.get('/api/v1/test/boom', async () => {
        throw new Error('secret detail of the database');
      });
      app.get('/api/v1/test/refuse', async () => {
        throw new ApiError(CODE.tokenExpired, M.tokenExpired);
      });
    },
  },
);

describe('behind listed proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      config: { trustProxy: ['192.0.2.10', '10.8.0.0/16'] },
      beforeReady: (app) => {
        app.get('/api/v1/test/ip', async (req) => ({ code: CODE.ok, msg: 'ok', data: req.ip }));
      },
    });
  });
  afterAll(() => t?.close());

  it("takes the client's address from X-Forwarded-For only when the hop is a listed proxy", async () => {
    const ipVia = async (remoteAddress: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/test/ip', remoteAddress, headers: { 'x-forwarded-for': '203.0.113.7' } })).json<{ data: string }>().data;
    expect(await ipVia('192.0.2.10')).toBe('203.0.113.7');
    expect(await ipVia('10.8.3.4')).toBe('203.0.113.7');
    expect(await ipVia('198.51.100.1')).toBe('198.51.100.1');
  });
});

describe('loadConfig', () => {
  it('refuses the development endpoints in production', () => {
    expect(() => loadConfig({ HUBLINK_DEV_ENDPOINTS: '1', NODE_ENV: 'production' })).toThrow(/HUBLINK_DEV_ENDPOINTS/);
  });

  it('enables them only when asked, outside production', () => {
    expect(loadConfig({ HUBLINK_DEV_ENDPOINTS: '1', NODE_ENV: 'development' }).devEndpoints).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).devEndpoints).toBe(false);
    expect(loadConfig({ HUBLINK_DEV_ENDPOINTS: '0', NODE_ENV: 'production' }).devEndpoints).toBe(false);
  });

  it('trusts every proxy with 1, only the listed ones with a list, and refuses an entry that is not an address', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ HUBLINK_TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ HUBLINK_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', '::1']);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.5/8/1', 'proxy.example.com']) {
      expect(() => loadConfig({ HUBLINK_TRUST_PROXY: bad })).toThrow(/HUBLINK_TRUST_PROXY/);
    }
  });

  it('reads the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, databaseUrl: undefined, redisUrl: undefined, smtpUrl: undefined, devEndpoints: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://r', SMTP_URL: 'smtp://m' })).toMatchObject({
      databaseUrl: 'postgres://x/y',
      redisUrl: 'redis://r',
      smtpUrl: 'smtp://m',
    });
  });
});
