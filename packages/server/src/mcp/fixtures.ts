import { createApiToken, createRole, type RoleAuth } from '@hublink/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../../test/helpers';
import { MCP_PATH } from './routes';

/* What the MCP tests share: the app listening on loopback, the SDK's own client, tokens. */

/** Starts the test app on a loopback port; answers the MCP endpoint's URL. */
export async function listenForMcp(t: TestApp): Promise<URL> {
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return new URL(MCP_PATH, address);
}

/** The SDK's client, connected (initialize and initialized) with the token as a bearer. */
export async function mcpClient(url: URL, token: string): Promise<Client> {
  const client = new Client({ name: 'hublink-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Creates a personal API token through the REST call (a main account's session); answers the token and its id. */
export async function newApiToken(t: TestApp, mainToken: string, body: { name?: string; scope: 'read' | 'role'; role_id?: number }): Promise<{ token: string; id: number }> {
  const res = await t.call(createApiToken, { token: mainToken, body: { name: 'assistant', expires_days: 30, ...body } });
  if (res.code !== 200) throw new Error(`create token: ${res.msg}`);
  return { token: res.data!.token, id: res.data!.id };
}

/** A 'role' token of a new role of the tenant. */
export async function roleToken(t: TestApp, mainToken: string, auth: RoleAuth): Promise<{ token: string; id: number }> {
  const role = await t.call(createRole, { token: mainToken, body: { name: `r${Date.now() % 1e6}${Math.floor(Math.random() * 1e4)}`, note: '', auth } });
  if (role.code !== 200) throw new Error(`create role: ${role.msg}`);
  return newApiToken(t, mainToken, { scope: 'role', role_id: role.data!.id });
}

/** The text of a tool's answer. */
export function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (!first || first.type !== 'text') throw new Error(`no text answer: ${JSON.stringify(result)}`);
  return first.text;
}

/** A successful tool answer's JSON (throws on a refusal, with its message). */
export function dataOf<T = unknown>(result: Awaited<ReturnType<Client['callTool']>>): T {
  if (result.isError) throw new Error(`tool refused: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}
