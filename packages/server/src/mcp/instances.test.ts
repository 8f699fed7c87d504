import { randomBytes } from 'node:crypto';
import { M, networkInfo, setDns } from '@hublink/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, FULL_ROLE, newAccount, sharedDatabase, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { RedisStore } from '../core/store';
import { dataOf, listenForMcp, mcpClient, roleToken, textOf } from './fixtures';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

// Two instances as deployed for scale (one PostgreSQL, one Redis): a plan made on one is confirmed on the other, once.
describe.skipIf(!databaseUrl || !redisUrl)('MCP plans across two instances on PostgreSQL and Redis', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let onA: Client;
  let onB: Client;
  let mainToken = '';
  let net = '';

  beforeAll(async () => {
    shared = await sharedDatabase('postgres');
    const prefix = `hublink-test:${randomBytes(6).toString('hex')}:`;
    const instance = (name: string) =>
      createTestApp('postgres', { config: { redisUrl, instance: name, apiRateLimitPerMinute: 1_000_000 }, backbone: { redisPrefix: prefix }, database: shared.open(), store: new RedisStore(redisUrl!, prefix) });
    a = await instance('mcp-a');
    b = await instance('mcp-b');
    const main = await newAccount(a);
    mainToken = main.token;
    const [center] = await seedFreshMembers(a, main.account.id, 1);
    net = (await seedNetwork(a, main.account.id, { center: [center!] })).network_number;
    const { token } = await roleToken(a, main.token, FULL_ROLE);
    onA = await mcpClient(await listenForMcp(a), token);
    onB = await mcpClient(await listenForMcp(b), token);
  }, 60_000);
  afterAll(async () => {
    await onA?.close();
    await onB?.close();
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  it('confirms on B the plan made on A, and only once', async () => {
    const args = { network_number: net, path: setDns.path, body: { dns: ['10.3.0.53'] } };
    const plan = dataOf<{ plan_id: string }>(await onA.callTool({ name: 'change_setting', arguments: args }));
    dataOf(await onB.callTool({ name: 'change_setting', arguments: { ...args, confirm: plan.plan_id } }));
    expect((await a.call(networkInfo, { token: mainToken, query: { network_number: net } })).data!.network_dns).toEqual(['10.3.0.53']);
    const again = await onA.callTool({ name: 'change_setting', arguments: { ...args, confirm: plan.plan_id } });
    expect({ isError: again.isError, text: textOf(again) }).toEqual({ isError: true, text: M.mcpPlanUnknown });
  });
});
