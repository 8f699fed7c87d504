import { M, networkInfo, setDns } from '@hublink/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASES, FULL_ROLE, newAccount, type TestApp } from '../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../test/networks';
import { MemoryStore } from '../core/store';
import { PLAN_TTL_SECONDS } from './confirm';
import { dataOf, listenForMcp, mcpClient, roleToken, textOf } from './fixtures';
import { MCP_USER_AGENT } from './rest';

/*
 * The two steps of the destructive tools: the first call changes nothing (the database is compared)
 * and answers a plan id; the same call with confirm makes the change, audited as the token. A plan id
 * works once, for its token, its tool and its exact arguments, and only for PLAN_TTL_SECONDS.
 */

interface Plan {
  plan_id: string;
  expires_in_seconds: number;
  plan: Record<string, unknown>;
  next: string;
}

for (const dialect of DATABASES) {
  describe(`MCP destructive tools: plan, then confirm [${dialect}]`, () => {
    let t: TestApp;
    let skewMs = 0;
    let client: Client;
    let stranger: Client;
    let tokenId: number;
    let net: string;
    let center: string;
    let points: string[];
    let mainToken: string;

    beforeAll(async () => {
      // The plans' store runs on a clock the test can move (expiry without waiting).
      t = await createTestApp(dialect, { config: { apiRateLimitPerMinute: 1_000_000 }, store: new MemoryStore(() => Date.now() + skewMs) });
      const url = await listenForMcp(t);
      const main = await newAccount(t);
      mainToken = main.token;
      const members = await seedFreshMembers(t, main.account.id, 3);
      center = members[0]!;
      points = members.slice(1);
      net = (await seedNetwork(t, main.account.id, { center: [center], point: points, name: '确认网络' })).network_number;
      const mine = await roleToken(t, main.token, FULL_ROLE);
      tokenId = mine.id;
      client = await mcpClient(url, mine.token);
      // Another token of the same tenant with the same rights.
      stranger = await mcpClient(url, (await roleToken(t, main.token, FULL_ROLE)).token);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await stranger?.close();
      await t?.close();
    });

    /** Everything a change could write. */
    const written = async () => {
      await t.ctx.events.settle();
      return {
        ...(await networkTables(t)),
        versions: await t.db.selectFrom('network_version').select(['id']).orderBy('id').execute(),
        audit: await t.db.selectFrom('audit_entry').select(['id']).orderBy('id').execute(),
      };
    };
    const dnsNow = async () => (await t.call(networkInfo, { token: mainToken, query: { network_number: net } })).data!.network_dns;
    const auditOf = async (path: string) => {
      await t.ctx.events.settle();
      return t.db.selectFrom('audit_entry').selectAll().where('path', '=', path).orderBy('id').execute();
    };
    const refusal = async (c: Client, name: string, args: Record<string, unknown>) => {
      const result = await c.callTool({ name, arguments: args });
      expect(result.isError, textOf(result)).toBe(true);
      return textOf(result);
    };

    const dnsArgs = (dns: string) => ({ network_number: net, path: setDns.path, body: { dns: [dns] } });

    it('change_setting: the first call previews and changes nothing; confirm makes the change once, audited as the token', async () => {
      const before = await written();
      const plan = dataOf<Plan>(await client.callTool({ name: 'change_setting', arguments: dnsArgs('10.1.0.53') }));
      expect(plan).toMatchObject({ plan_id: expect.stringMatching(/^plan_[A-Za-z0-9_-]{22}$/), expires_in_seconds: PLAN_TTL_SECONDS, next: expect.stringContaining(plan.plan_id) });
      expect(plan.plan).toMatchObject({ member_count: 3, reach: [] });
      expect(await written()).toEqual(before);

      // Refused, each changing nothing and leaving the plan as it was: other arguments, another tool, another token, no such id.
      expect(await refusal(client, 'change_setting', { ...dnsArgs('10.1.0.54'), confirm: plan.plan_id })).toBe(M.mcpPlanOtherArguments);
      expect(await refusal(client, 'rollback_network', { network_number: net, version: 1, confirm: plan.plan_id })).toBe(M.mcpPlanOtherArguments);
      expect(await refusal(stranger, 'change_setting', { ...dnsArgs('10.1.0.53'), confirm: plan.plan_id })).toBe(M.mcpPlanOtherToken);
      expect(await refusal(client, 'change_setting', { ...dnsArgs('10.1.0.53'), confirm: 'plan_xxxxxxxxxxxxxxxxxxxxxx' })).toBe(M.mcpPlanUnknown);
      expect(await refusal(client, 'change_setting', { ...dnsArgs('10.1.0.53'), confirm: 'anything' })).toBe(M.mcpPlanUnknown);
      expect(await written()).toEqual(before);

      // The same arguments in another order are the same arguments.
      const done = dataOf<{ msg: string }>(await client.callTool({ name: 'change_setting', arguments: { body: { dns: ['10.1.0.53'] }, path: setDns.path, network_number: net, confirm: plan.plan_id } }));
      expect(done.msg).toBe(M.saved);
      expect(await dnsNow()).toEqual(['10.1.0.53']);
      const [entry, ...more] = await auditOf(setDns.path);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ who: 'token', token_id: tokenId, source: 'api', method: 'POST', msg: M.saved });
      expect(entry!.user_agent.startsWith(MCP_USER_AGENT)).toBe(true);

      // Used once.
      const after = await written();
      expect(await refusal(client, 'change_setting', { ...dnsArgs('10.1.0.53'), confirm: plan.plan_id })).toBe(M.mcpPlanUnknown);
      expect(await written()).toEqual(after);
    });

    it('refuses a plan past its time, changing nothing', async () => {
      const plan = dataOf<Plan>(await client.callTool({ name: 'change_setting', arguments: dnsArgs('10.1.0.99') }));
      const before = await written();
      skewMs = (PLAN_TTL_SECONDS + 1) * 1000;
      try {
        expect(await refusal(client, 'change_setting', { ...dnsArgs('10.1.0.99'), confirm: plan.plan_id })).toBe(M.mcpPlanUnknown);
      } finally {
        skewMs = 0;
      }
      expect(await written()).toEqual(before);
      expect(await dnsNow()).toEqual(['10.1.0.53']);
    });

    it('takes a plan once when two confirmations race', async () => {
      const args = dnsArgs('10.1.0.77');
      const plan = dataOf<Plan>(await client.callTool({ name: 'change_setting', arguments: args }));
      const results = await Promise.all([0, 1].map(() => client.callTool({ name: 'change_setting', arguments: { ...args, confirm: plan.plan_id } })));
      expect(results.map((r) => r.isError === true).sort()).toEqual([false, true]);
      expect(textOf(results.find((r) => r.isError)!)).toBe(M.mcpPlanUnknown);
      expect(await auditOf(setDns.path)).toHaveLength(2);
    });

    it('remove_member: the plan names the member and its links; confirm removes it', async () => {
      const args = { network_number: net, router_name: points[1]!.toUpperCase() };
      const before = await written();
      const plan = dataOf<Plan>(await client.callTool({ name: 'remove_member', arguments: args }));
      expect(plan.plan).toMatchObject({ network_number: net, remove: { router_name: points[1], member_type: 'point' }, links: { count: 1, up: 0 }, members_left: 2 });
      expect(await written()).toEqual(before);
      expect(await refusal(client, 'remove_member', { network_number: net, router_name: 'nobody' })).toBe(M.networkMemberNotIn);

      dataOf(await client.callTool({ name: 'remove_member', arguments: { ...args, confirm: plan.plan_id } }));
      const members = (await t.call(networkInfo, { token: mainToken, query: { network_number: net } })).data!.member.map((m) => m.router_name);
      expect(members.sort()).toEqual([center, points[0]!].sort());
      expect(await auditOf('/network/remove_member')).toEqual([expect.objectContaining({ who: 'token', token_id: tokenId })]);
    });

    it('rollback_network: the plan compares the network now with the version; confirm restores it', async () => {
      const history = dataOf<{ data: { version: number }[] }>(await client.callTool({ name: 'network_history', arguments: { network_number: net, limit: 100 } }));
      const first = Math.min(...history.data.map((v) => v.version));
      const before = await written();
      const plan = dataOf<Plan>(await client.callTool({ name: 'rollback_network', arguments: { network_number: net, version: first } }));
      const plannedKeys = (plan.plan.changes as { key: string; changed: boolean }[]).map((r) => r.key);
      expect(plannedKeys).toContain('network.dns');
      expect(plan.plan).toMatchObject({ to_version: first, members: { added: [points[1]] } });
      expect(await written()).toEqual(before);

      dataOf(await client.callTool({ name: 'rollback_network', arguments: { network_number: net, version: first, confirm: plan.plan_id } }));
      expect(await dnsNow()).toEqual([]);
      expect(await auditOf('/network/history/rollback')).toEqual([expect.objectContaining({ who: 'token', token_id: tokenId })]);
    });

    it('apply_network_document: the plan is the document’s plan; confirm applies it', async () => {
      const exported = dataOf<{ document: string }>(await client.callTool({ name: 'export_network_document', arguments: { network_number: net, format: 'json' } }));
      const document = JSON.stringify({ ...JSON.parse(exported.document), dns: ['10.2.0.53'] });
      const before = await written();
      const plan = dataOf<Plan>(await client.callTool({ name: 'apply_network_document', arguments: { network_number: net, document } }));
      expect((plan.plan.changes as { key: string }[]).map((r) => r.key)).toContain('network.dns');
      expect(await written()).toEqual(before);

      dataOf(await client.callTool({ name: 'apply_network_document', arguments: { network_number: net, document, confirm: plan.plan_id } }));
      expect(await dnsNow()).toEqual(['10.2.0.53']);
      expect(await auditOf('/network/apply')).toEqual([expect.objectContaining({ who: 'token', token_id: tokenId })]);
    });
  });
}
