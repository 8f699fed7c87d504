import fc from 'fast-check';
import { CODE, M, revokeApiToken } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { dataOf, listenForMcp, mcpClient, newApiToken } from './fixtures';
import { MCP_PATH } from './routes';
import { MCP_TOOLS } from './server';

/*
 * The endpoint itself: the SDK's own client connects and lists the tools; only a personal API token
 * opens it (none, a bad or revoked one, a console session as bearer or cookie: 401); other methods are
 * 405 in the JSON-RPC shape; no body, header or method gets a 500, and every answer is either the
 * protocol's JSON-RPC or, for a refused caller, the API's envelope.
 */

const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

for (const dialect of DATABASES) {
  describe(`MCP endpoint: protocol and authentication [${dialect}]`, () => {
    let t: TestApp;
    let url: URL;
    let main: Awaited<ReturnType<typeof newAccount>>;
    let token: string;

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { apiRateLimitPerMinute: 1_000_000 } });
      url = await listenForMcp(t);
      main = await newAccount(t);
      token = (await newApiToken(t, main.token, { scope: 'read' })).token;
      const [center] = await seedFreshMembers(t, main.account.id, 1);
      await seedNetwork(t, main.account.id, { center: [center!], name: '协议网络' });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const post = (body: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: MCP_PATH, payload: body, headers: { authorization: `Bearer ${token}`, accept: ACCEPT, 'content-type': 'application/json', ...headers } });

    it('answers the SDK client: initialize, tools/list with every tool and its input schema, a read tool', async () => {
      const client = await mcpClient(url, token);
      try {
        expect(client.getServerVersion()?.name).toBe('hublink');
        const { tools } = await client.listTools();
        expect(tools.map((x) => x.name)).toEqual(MCP_TOOLS.map((x) => x.name));
        const remove = tools.find((x) => x.name === 'remove_member')!;
        expect(remove.inputSchema.required).toEqual(['network_number', 'router_name']);
        expect(Object.keys(remove.inputSchema.properties ?? {})).toContain('confirm');
        expect(remove.annotations).toMatchObject({ destructiveHint: true });
        expect(tools.find((x) => x.name === 'list_networks')!.annotations).toMatchObject({ readOnlyHint: true });
        const list = dataOf<{ count: number; data: { network_name: string }[] }>(await client.callTool({ name: 'list_networks', arguments: {} }));
        expect(list).toMatchObject({ count: 1, data: [{ network_name: '协议网络' }] });
      } finally {
        await client.close();
      }
    });

    it('refuses without a personal API token: none, malformed, unknown, revoked, a console session (bearer or cookie)', async () => {
      const revoked = await newApiToken(t, main.token, { scope: 'read' });
      expect((await t.call(revokeApiToken, { token: main.token, body: { id: revoked.id } })).code).toBe(200);
      const cases: [Record<string, string>, string][] = [
        [{}, M.mcpApiTokenRequired],
        [{ authorization: 'Basic abc' }, M.mcpApiTokenRequired],
        [{ authorization: `Bearer ${main.token}` }, M.mcpApiTokenRequired],
        [{ cookie: `token=${main.token}; access_token=${main.token}` }, M.mcpApiTokenRequired],
        [{ authorization: `Bearer hlk_${'A'.repeat(43)}` }, M.apiTokenInvalid],
        [{ authorization: 'Bearer hlk_short' }, M.apiTokenInvalid],
        [{ authorization: `Bearer ${revoked.token}` }, M.apiTokenInvalid],
      ];
      for (const [headers, msg] of cases) {
        const res = await t.app.inject({ method: 'POST', url: MCP_PATH, payload: JSON.stringify(INITIALIZE), headers: { accept: ACCEPT, 'content-type': 'application/json', ...headers } });
        expect({ headers, status: res.statusCode, body: res.json() }).toEqual({ headers, status: 401, body: { code: CODE.tokenInvalid, msg } });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
      // The SDK's client sees the 401 too.
      await expect(mcpClient(url, revoked.token)).rejects.toMatchObject({ code: 401 });
    });

    it('answers 405 in the JSON-RPC shape to every other method, with or without a token', async () => {
      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
        for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
          const res = await t.app.inject({ method, url: MCP_PATH, headers });
          expect({ method, status: res.statusCode, allow: res.headers.allow }).toEqual({ method, status: 405, allow: 'POST' });
          expect(res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
        }
      }
      // What is under the path but not the endpoint is the API's 404.
      const under = await t.app.inject({ method: 'POST', url: `${MCP_PATH}/tools`, headers: { authorization: `Bearer ${token}` }, payload: {} });
      expect({ status: under.statusCode, body: under.json() }).toEqual({ status: 404, body: { code: 404, msg: M.apiNotFound } });
    });

    it('answers malformed requests with the protocol errors', async () => {
      const cases: [string, Record<string, string>, number, number][] = [
        ['{', {}, 400, -32700],
        ['', {}, 400, -32700],
        ['{"jsonrpc":"1.0"}', {}, 400, -32700],
        [JSON.stringify(INITIALIZE), { 'content-type': 'text/plain' }, 415, -32000],
        [JSON.stringify(INITIALIZE), { accept: 'application/json' }, 406, -32000],
      ];
      for (const [body, headers, status, code] of cases) {
        const res = await post(body, headers);
        expect({ body, status: res.statusCode, code: res.json<{ error: { code: number } }>().error.code }).toEqual({ body, status, code });
      }
      // No content type at all, and a body over the app's limit.
      const untyped = await t.app.inject({ method: 'POST', url: MCP_PATH, payload: Buffer.from(JSON.stringify(INITIALIZE)), headers: { authorization: `Bearer ${token}`, accept: ACCEPT } });
      expect({ status: untyped.statusCode, code: untyped.json<{ error: { code: number } }>().error.code }).toEqual({ status: 415, code: -32000 });
      const huge = await post(JSON.stringify({ ...INITIALIZE, padding: 'x'.repeat(5 * 1024 * 1024) }));
      expect({ status: huge.statusCode, body: huge.json() }).toEqual({ status: 413, body: { jsonrpc: '2.0', error: { code: -32000, message: 'Payload Too Large' }, id: null } });
      // A notification alone is accepted with no body; an unknown tool is the protocol's refusal.
      expect((await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).statusCode).toBe(202);
      const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'drop_everything', arguments: {} } }), { 'mcp-protocol-version': '2025-06-18' });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toMatchObject({ id: 7, result: { isError: true } });
    });

    it('never answers 500 nor anything but JSON-RPC or the envelope, whatever the body, headers and arguments (fuzz)', async () => {
      const names = MCP_TOOLS.map((x) => x.name);
      const message = fc.oneof(
        fc.json(),
        fc.string(),
        fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'resources/list'), params: fc.anything() }).map((m) => JSON.stringify(m)),
        fc
          .record({ name: fc.constantFrom(...names, 'nope'), arguments: fc.dictionary(fc.constantFrom('network_number', 'router_name', 'version', 'path', 'body', 'document', 'confirm', 'page', 'limit', 'log'), fc.anything()) })
          .map((params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })),
      );
      const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x');
      await fc.assert(
        fc.asyncProperty(message, contentType, fc.boolean(), async (body, type, batch) => {
          const res = await post(batch ? `[${body}]` : body, { 'content-type': type, 'mcp-protocol-version': '2025-06-18' });
          expect(res.statusCode).not.toBe(500);
          if (res.statusCode === 202) return;
          const answer = JSON.parse(res.body) as unknown;
          const one = (Array.isArray(answer) ? answer[0] : answer) as Record<string, unknown>;
          expect(one.jsonrpc === '2.0' || typeof one.code === 'number').toBe(true);
        }),
        { numRuns: dialect === 'sqlite' ? 300 : 60 },
      );
    }, 120_000);
  });
}
