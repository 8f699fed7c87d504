import {
  CODE,
  exportNetwork,
  listNetworks,
  M,
  NETWORK_DOCUMENT_KIND,
  networkInfo,
  previewNetworkChange,
  removeNetworkMember,
  routerDiagnosis,
  routerInfo,
  setDns,
  type Endpoint,
  type RoleAuth,
} from '@hublink/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, FULL_ROLE, newAccount, type TestApp } from '../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../test/networks';
import { dataOf, listenForMcp, mcpClient, newApiToken, roleToken, textOf } from './fixtures';

/*
 * The tools against the REST API they call: a read answers the call's data; a refusal is the call's
 * own message, for the same token; a 'read' token cannot change anything; a role limited to one
 * network is refused on another; a tenant's token never sees nor changes another tenant's network.
 */

const ONLY_NETWORK = (network: string): RoleAuth => ({ ...FULL_ROLE, 'easylink.network': { create: 0, edit: 1, delete: 0, network: [network] } });

for (const dialect of DATABASES) {
  describe(`MCP tools: reads, scope and tenant isolation [${dialect}]`, () => {
    let t: TestApp;
    let url: URL;
    const clients: Client[] = [];
    let a: { main: Awaited<ReturnType<typeof newAccount>>; center: string; points: string[]; net1: string; net2: string };
    let b: { center: string; net: string };
    let readToken: string;
    let oneNetworkToken: string;
    let fullToken: string;

    const connect = async (token: string) => {
      const client = await mcpClient(url, token);
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { apiRateLimitPerMinute: 1_000_000 } });
      url = await listenForMcp(t);
      const main = await newAccount(t);
      const [center, p1, p2, c2] = await seedFreshMembers(t, main.account.id, 4);
      const net1 = (await seedNetwork(t, main.account.id, { center: [center!], point: [p1!, p2!], name: '总部网络' })).network_number;
      const net2 = (await seedNetwork(t, main.account.id, { center: [c2!], name: '分部网络' })).network_number;
      a = { main, center: center!, points: [p1!, p2!], net1, net2 };
      const other = await newAccount(t);
      const [bCenter] = await seedFreshMembers(t, other.account.id, 1);
      b = { center: bCenter!, net: (await seedNetwork(t, other.account.id, { center: [bCenter!], name: '别家网络' })).network_number };
      readToken = (await newApiToken(t, main.token, { scope: 'read' })).token;
      oneNetworkToken = (await roleToken(t, main.token, ONLY_NETWORK(net1))).token;
      fullToken = (await roleToken(t, main.token, FULL_ROLE)).token;
    }, 60_000);
    afterAll(async () => {
      for (const c of clients) await c.close();
      await t?.close();
    });

    /** The REST answer to the same call with the same token, for comparison. */
    const rest = (endpoint: Endpoint, token: string, input: Record<string, unknown>) =>
      t.call(endpoint, { token, ...(endpoint.method === 'GET' ? { query: input } : { body: input }) });

    it('answers each read tool with its REST call’s data', async () => {
      const client = await connect(readToken);
      const networks = dataOf<{ count: number; data: { network_number: string }[] }>(await client.callTool({ name: 'list_networks', arguments: { search: '网络' } }));
      expect(networks).toEqual({ count: 2, data: (await rest(listNetworks, readToken, { search: '网络' })).data });

      const detail = dataOf(await client.callTool({ name: 'get_network', arguments: { network_number: a.net1 } }));
      expect(detail).toEqual((await rest(networkInfo, readToken, { network_number: a.net1 })).data);
      expect((detail as { member: { router_name: string }[] }).member.map((m) => m.router_name).sort()).toEqual([a.center, ...a.points].sort());

      const status = dataOf<{ online: Record<string, number> }>(await client.callTool({ name: 'network_status', arguments: { network_number: a.net1 } }));
      expect(Object.keys(status.online).sort()).toEqual([a.center, ...a.points].sort());

      const members = dataOf<{ count: number; data: { router_name: string }[] }>(await client.callTool({ name: 'list_members', arguments: {} }));
      expect(members.count).toBe(4);

      expect(dataOf(await client.callTool({ name: 'member_status', arguments: { router_name: a.center } }))).toEqual((await rest(routerInfo, readToken, { router_name: a.center })).data);
      const diagnosis = dataOf<{ cause: string }>(await client.callTool({ name: 'diagnose_member', arguments: { router_name: a.center } }));
      expect(diagnosis).toEqual((await rest(routerDiagnosis, readToken, { router_name: a.center })).data);
      expect(diagnosis.cause).toBe('never_connected');

      for (const log of ['connect', 'online']) {
        expect(dataOf(await client.callTool({ name: 'recent_logs', arguments: { log, router_name: a.center } }))).toEqual({ count: 0, data: [] });
      }
      expect(dataOf(await client.callTool({ name: 'network_history', arguments: { network_number: a.net1 } }))).toMatchObject({ count: expect.any(Number) });
      const doc = dataOf<{ document: string }>(await client.callTool({ name: 'export_network_document', arguments: { network_number: a.net1, format: 'json' } }));
      expect(doc).toEqual((await rest(exportNetwork, readToken, { network_number: a.net1, format: 'json' })).data);
      expect(JSON.parse(doc.document)).toMatchObject({ name: '总部网络' });
    });

    it('refuses with the REST call’s own message', async () => {
      const client = await connect(readToken);
      const cases: [string, Record<string, unknown>, Endpoint][] = [
        ['get_network', { network_number: 'N-NONE' }, networkInfo],
        ['member_status', { router_name: 'nobody' }, routerInfo],
        ['diagnose_member', { router_name: 'nobody' }, routerDiagnosis],
      ];
      for (const [name, args, endpoint] of cases) {
        const result = await client.callTool({ name, arguments: args });
        const real = await rest(endpoint, readToken, args);
        expect(real.code).not.toBe(CODE.ok);
        expect({ name, isError: result.isError, text: textOf(result) }).toEqual({ name, isError: true, text: real.msg });
      }
      // An argument the tool's schema (the contract's) refuses: the contract's message.
      const bad = await client.callTool({ name: 'recent_logs', arguments: { start_time: '2025-02-30' } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain(M.logDateInvalid);
    });

    it("refuses a 'read' token every change, at the first step, and changes nothing", async () => {
      const client = await connect(readToken);
      const before = await networkTables(t);
      const calls: [string, Record<string, unknown>][] = [
        ['remove_member', { network_number: a.net1, router_name: a.points[0] }],
        ['change_setting', { network_number: a.net1, path: setDns.path, body: { dns: ['10.1.0.53'] } }],
        ['rollback_network', { network_number: a.net1, version: 1 }],
        ['apply_network_document', { network_number: a.net1, document: '{}' }],
        ['preview_change', { network_number: a.net1, path: setDns.path, body: { dns: ['10.1.0.53'] } }],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError, text: textOf(result) }).toEqual({ name, isError: true, text: M.deniedPermission });
      }
      // The REST API says the same to the same token.
      expect((await rest(removeNetworkMember, readToken, { network_number: a.net1, router_name: a.points[0] })).msg).toBe(M.deniedPermission);
      expect(await networkTables(t)).toEqual(before);
    });

    it('holds a role limited to one network to it', async () => {
      const client = await connect(oneNetworkToken);
      const networks = dataOf<{ data: { network_number: string }[] }>(await client.callTool({ name: 'list_networks', arguments: {} }));
      expect(networks.data.map((n) => n.network_number)).toEqual([a.net1]);
      const before = await networkTables(t);
      const detail = await client.callTool({ name: 'get_network', arguments: { network_number: a.net2 } });
      expect({ isError: detail.isError, text: textOf(detail) }).toEqual({ isError: true, text: (await rest(networkInfo, oneNetworkToken, { network_number: a.net2 })).msg });
      for (const [name, args] of [
        ['remove_member', { network_number: a.net2, router_name: 'x' }],
        ['change_setting', { network_number: a.net2, path: setDns.path, body: { dns: ['10.1.0.53'] } }],
        ['preview_change', { network_number: a.net2, path: setDns.path, body: { dns: ['10.1.0.53'] } }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError, text: textOf(result) }).toEqual({ name, isError: true, text: M.deniedNetwork });
      }
      expect((await rest(previewNetworkChange, oneNetworkToken, { network_number: a.net2, path: setDns.path, body: { dns: ['10.1.0.53'] } })).msg).toBe(M.deniedNetwork);
      // Its own network it may change: the first step answers a plan.
      const plan = dataOf<{ plan_id: string }>(await client.callTool({ name: 'remove_member', arguments: { network_number: a.net1, router_name: a.points[0] } }));
      expect(plan.plan_id).toMatch(/^plan_/);
      expect(await networkTables(t)).toEqual(before);
    });

    it("never shows nor changes another tenant's network or member", async () => {
      const client = await connect(fullToken);
      const before = await networkTables(t);
      const list = dataOf<{ data: { network_number: string }[] }>(await client.callTool({ name: 'list_networks', arguments: {} }));
      expect(list.data.map((n) => n.network_number)).not.toContain(b.net);
      const reads: [string, Record<string, unknown>][] = [
        ['get_network', { network_number: b.net }],
        ['network_status', { network_number: b.net }],
        ['member_status', { router_name: b.center }],
        ['diagnose_member', { router_name: b.center }],
        ['export_network_document', { network_number: b.net }],
        ['network_history', { network_number: b.net }],
      ];
      for (const [name, args] of reads) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError }).toEqual({ name, isError: true });
        expect([M.networkNotFound, M.memberNotFound]).toContain(textOf(result));
      }
      const changes: [string, Record<string, unknown>][] = [
        ['remove_member', { network_number: b.net, router_name: b.center }],
        ['change_setting', { network_number: b.net, path: setDns.path, body: { dns: ['10.1.0.53'] } }],
        ['rollback_network', { network_number: b.net, version: 1 }],
        ['apply_network_document', { network_number: b.net, document: JSON.stringify({ kind: NETWORK_DOCUMENT_KIND, name: '别家网络' }) }],
      ];
      for (const [name, args] of changes) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError, text: textOf(result) }).toEqual({ name, isError: true, text: M.networkNotFound });
      }
      expect(await networkTables(t)).toEqual(before);
    });
  });
}
