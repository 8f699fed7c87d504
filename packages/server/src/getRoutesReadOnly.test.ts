import os from 'node:os';
import path from 'node:path';
import { CODE, createApiToken, createAuthSource, createContact, createSupportTicket, ROUTER_TYPE, type Endpoint } from '@hublink/contract';
import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase, newAccount, newRamAccount, tablesOf, type TestApp } from '../test/helpers';
import { createNetworkThroughApi, seedMembers } from '../test/networks';

/*
 * No GET changes anything (issue 32, item 3): every GET route of the API, walked twice as a read-only
 * personal API token (scope 'read': GET calls only, acting as the main account), with valid example
 * queries naming the tenant's own rows, leaves every row of every table as it was. A GET is neither
 * audited nor refused to a read-only token, so a GET that wrote would be a change nobody can forbid
 * and nothing shows.
 */

/**
 * The columns a read may write, each for its reason; every other column of every table must stay as it
 * was.
 * - api_token.last_used_at, api_token.last_used_ip: the token's last use, which its list shows so a
 *   tenant can spot a leaked or forgotten token (core/apiTokens.ts, at most one write per
 *   LIMITS.apiTokenLastUseSeconds). Recording the use is what the columns are for.
 * - message.status: the read receipt. Spec 1 §4 makes it so: "0 becomes 1 when its detail is opened",
 *   and opening the detail is GET /message/info; reading a message through the API reads it as well.
 * - gateway_instance.seen_time: not a read's write but the clock's: each instance's gateway beats every
 *   few seconds whatever calls come (gateway/sessionRows.ts), and a slow walk outlasts a beat.
 * Not exceptions, because they are not in the database: request logs (the process log), rate-limit
 * counters and captchas (the key-value store).
 */
const WRITTEN_ON_READ: Record<string, readonly string[]> = {
  api_token: ['last_used_at', 'last_used_ip'],
  message: ['status'],
  gateway_instance: ['seen_time'],
};

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Every row of every table of the app's database (the excepted columns left out), in a stable order. */
async function wholeDatabase(t: TestApp): Promise<Record<string, string[]>> {
  await t.ctx.events.settle();
  const out: Record<string, string[]> = {};
  for (const table of await tablesOf(t)) {
    const skip = WRITTEN_ON_READ[table.name] ?? [];
    const rows = await (t.db as unknown as AnyDb).selectFrom(table.name).selectAll().execute();
    out[table.name] = rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !skip.includes(k))))).sort();
  }
  return out;
}

/** The tables whose rows differ, with the rows only one side has. */
function changes(before: Record<string, string[]>, after: Record<string, string[]>) {
  const out: { table: string; gone: string[]; added: string[] }[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, is] = [before[table] ?? [], after[table] ?? []];
    const gone = was.filter((r) => !is.includes(r));
    const added = is.filter((r) => !was.includes(r));
    if (gone.length > 0 || added.length > 0 || was.length !== is.length) out.push({ table, gone, added });
  }
  return out;
}

/**
 * The GET routes outside the contract, walked too: the OpenAPI document, the dev endpoints (on in tests),
 * health, readiness, metrics, and the device gateway's WebSocket (a plain GET of it is refused).
 */
const OUTSIDE_CONTRACT = ['/api/v1/openapi.json', '/api/dev/captcha?uniqid=x', '/api/dev/outbox?to=x', '/healthz', '/readyz', '/metrics', '/api/device/v1/ws'];

const shapeOf = (schema: unknown): Record<string, z.ZodType> =>
  schema && typeof schema === 'object' && 'shape' in schema ? (schema as { shape: Record<string, z.ZodType> }).shape : {};

/** The values a field's JSON Schema lists (enum, const), anywhere in it. */
function listedValues(field: z.ZodType): unknown[] {
  const out: unknown[] = [];
  const walk = (s: unknown) => {
    if (!s || typeof s !== 'object') return;
    const o = s as { enum?: unknown[]; const?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
    if (o.enum) out.push(...o.enum);
    if (o.const !== undefined) out.push(o.const);
    for (const x of [...(o.anyOf ?? []), ...(o.oneOf ?? [])]) walk(x);
  };
  walk(z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }));
  return out;
}

describeEachDatabase(
  'no GET route changes the database, called as a read-only API token',
  (t) => {
    let readToken: string;
    /** Values of the tenant's own rows, by the query field that names them (several: one query each). */
    const own: Record<string, unknown[]> = {};
    /** What an `id` names, by the path's first part. */
    const idByArea: Record<string, number> = {};

    beforeAll(async () => {
      const main = await newAccount(t());
      const tenantId = main.account.id;
      await t().db.updateTable('account').set({ network_router_count: 50, software_auth_source: 1 }).where('id', '=', tenantId).execute();
      const suffix = String(Date.now() % 100_000).padStart(5, '0');
      const [center, point, soft] = [`rc${suffix}`, `rp${suffix}`, `rs${suffix}`];
      await seedMembers(t(), tenantId, [center, point]);
      await seedMembers(t(), tenantId, [soft], { router_type: ROUTER_TYPE.software });
      const networkNumber = await createNetworkThroughApi(t(), main.token, { center: [center], point: [point, soft] });
      const ram = await newRamAccount(t(), tenantId);
      const now = Date.now();
      const message = await t()
        .db.insertInto('message')
        .values({ tenant_id: tenantId, title: '设备上线', content: '<p>上线</p>', type: '系统', status: 0, create_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const announcement = await t()
        .db.insertInto('announcement')
        .values({ title: '维护通知', tag: '通知', content: '<p>维护</p>', release_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ticket = await t().call(createSupportTicket, { token: main.token, body: { title: '无法连接', content: '分支机构的路由器无法连接', type: 1, file_ids: [] } });
      expect(ticket.code).toBe(CODE.ok);
      const ticketNumber = ticket.data!.ticket_number;
      const contact = await t().call(createContact, { token: main.token, body: { name: '值班', email: 'duty@example.com' } });
      expect(contact.code).toBe(CODE.ok);
      const source = await t().call(createAuthSource, {
        token: main.token,
        body: { type: 'dingtalk', name: '钉钉', app_id: 'dingappkey0003', app_secret: 'dingtalk-secret-0003', corp_id: 'ding0corp0003' },
      });
      expect(source.code).toBe(CODE.ok);
      const made = await t().call(createApiToken, { token: main.token, body: { name: '只读', scope: 'read', expires_days: 30 } });
      expect(made.code).toBe(CODE.ok);
      readToken = made.data!.token;

      Object.assign(own, {
        page: [1],
        limit: [10],
        search: [''],
        router_name: [center, soft],
        network_number: [networkNumber],
        ticket_number: [ticketNumber],
        message_id: [message.id],
        ram_id: [ram.id],
        uuid: [contact.data!.uuid],
        domain: ['example.com'],
        start_time: ['2020-01-01'],
        end_time: ['2030-01-01'],
        start_date: ['2020-01-01'],
        end_date: ['2030-01-01'],
      });
      Object.assign(idByArea, { ram: ram.id, ram_role: ram.roleId, announcements: announcement.id, auth_source: source.data!.id });
    }, 120_000);

    /**
     * Queries of valid values: the tenant's own rows where a field names one (one query per such row,
     * for the fields that have several), else the first value the field lists or takes.
     */
    function exampleQueries(e: Endpoint): Record<string, unknown>[] {
      const area = e.path.split('/')[1] ?? '';
      const base: Record<string, unknown> = {};
      const variants: [string, unknown][] = [];
      for (const [key, field] of Object.entries(shapeOf(e.query))) {
        const mine = key === 'id' ? [idByArea[area]] : (own[key] ?? []);
        const takes = (v: unknown) => v !== undefined && field.safeParse(typeof v === 'number' ? v : String(v)).success;
        const value = [...mine, ...listedValues(field), 1, 'example'].find(takes);
        if (value !== undefined) base[key] = value;
        for (const other of mine.slice(1).filter(takes)) variants.push([key, other]);
      }
      return [base, ...variants.map(([k, v]) => ({ ...base, [k]: v }))];
    }

    it('walks every GET route twice; every row of every table stays as it was', async () => {
      const seen = new Set<string>();
      // Fastify registers a HEAD beside each GET, with the same endpoint: one call each.
      const gets = t()
        .app.endpoints.map((x) => x.endpoint)
        .filter((e) => e.method === 'GET' && !seen.has(e.path) && seen.add(e.path));
      expect(gets.length).toBeGreaterThan(90);
      // Every GET route the app registered is one of those (Fastify's listing marks each route with its methods).
      const registered = t().app.printRoutes({ commonPrefix: false, method: 'GET' }).match(/\(GET/g)?.length;
      expect(registered).toBe(new Set(t().app.endpoints.filter((x) => x.endpoint.method === 'GET').map((x) => x.url)).size + OUTSIDE_CONTRACT.length);
      const before = await wholeDatabase(t());
      expect(Object.keys(before).length).toBeGreaterThan(40);
      const answered = new Set<string>();
      for (const round of [1, 2]) {
        for (const e of gets) {
          for (const query of exampleQueries(e)) {
            const res = await t().call(e, { token: readToken, query });
            expect({ path: e.path, query, code: res.code }).not.toEqual({ path: e.path, query, code: CODE.internal });
            if (res.code === CODE.ok) answered.add(e.path);
          }
        }
        for (const url of OUTSIDE_CONTRACT) {
          const res = await t().app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${readToken}` } });
          expect({ url, status: res.statusCode }).not.toEqual({ url, status: 500 });
        }
        const after = await wholeDatabase(t());
        expect({ round, changed: changes(before, after) }).toEqual({ round, changed: [] });
      }
      // The examples get past validation into the services, so "nothing changed" means something.
      expect(answered.size).toBeGreaterThan(70);
      expect([...answered]).toEqual(
        expect.arrayContaining([
          '/ldap/download_verify_domain',
          '/auth_source/code',
          '/auth_source/info',
          '/router/info',
          '/router/profile',
          '/network/info',
          '/network/member_config',
          '/ticket/info',
          '/message/info',
          '/announcements/info',
          '/ram/info',
          '/contacts/info',
          '/router/export',
        ]),
      );
    }, 300_000);
  },
  // Without a built console: its files (one static GET route each, read from disk) are not the API.
  { config: { webDist: path.join(os.tmpdir(), 'hublink-no-console') } },
);
