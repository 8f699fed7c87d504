import fc from 'fast-check';
import { endpointUrl, httpStatusOf, isRedirectResponse, type Endpoint } from '@hublink/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asQuery, dateLike, inputsFor, multipart, type Hints } from '../test/fuzz';
import { createTestApp, DATABASES, FULL_ROLE, newAccount, newRamAccount, type TestApp } from '../test/helpers';
import { issueMemberSession } from './core/memberSessions';
import { seedMembers, seedNetwork } from '../test/networks';
import type { Dialect } from './db/connect';

/**
 * Property-based fuzzing of every registered route, as a signed-in main account and as a sub-account
 * (and of every member route as a member's self-service session):
 * generated bodies and queries (from each endpoint's schema, mutated, arbitrary JSON, hostile values,
 * broken multipart) never get an HTTP 500 nor an answer without the envelope. FUZZ_RUNS sets the
 * requests per route and caller on SQLite (200 by default); PostgreSQL, when the suite has it, gets
 * FUZZ_PG_RUNS (30 by default), for what only it refuses (a NUL in text, say).
 */
const RUNS: Record<Dialect, number> = { sqlite: Number(process.env.FUZZ_RUNS ?? 200), postgres: Number(process.env.FUZZ_PG_RUNS ?? 30) };

/** A download (export, template), an image shown inline and a sign-in step's redirect are the answers that are not envelopes. */
function checkAnswer(e: Endpoint, res: LightMyRequestResponse) {
  expect(res.statusCode).not.toBe(500);
  if (/^(attachment|inline);/.test(String(res.headers['content-disposition'] ?? ''))) return;
  if (res.statusCode === 302 && isRedirectResponse(e.response)) {
    expect(String(res.headers.location ?? '')).toMatch(/^https?:\/\//);
    return;
  }
  const body = JSON.parse(res.body) as { code?: unknown; msg?: unknown };
  expect(typeof body.code).toBe('number');
  expect(typeof body.msg).toBe('string');
  expect(res.statusCode).toBe(httpStatusOf(body.code as number));
}

for (const dialect of DATABASES) describe(`fuzz: no input gets a 500 or an answer without the envelope [${dialect}]`, () => {
  let t: TestApp;
  /** An account (main or sub-account), or a member's self-service session (`member`: it calls the member routes only). */
  const callers: { name: string; tenantId: number; ramId: number | null; token: string; member?: { tenant_id: number; id: number } }[] = [];
  let hints: Hints;
  let ip = 0;

  beforeAll(async () => {
    // Requests come from many addresses, so the per-address limits refuse some, not all of them.
    t = await createTestApp(dialect, { config: { apiRateLimitPerMinute: 1_000_000 } });
    const main = await newAccount(t);
    const other = await newAccount(t);
    // Both may use every feature, so generated requests reach the services behind the feature flags.
    await t.db.updateTable('account').set({ network_router_count: 50, software_auth_source: 1 }).where('id', 'in', [main.account.id, other.account.id]).execute();
    const ram = await newRamAccount(t, other.account.id, { auth: FULL_ROLE });
    callers.push({ name: 'main account', tenantId: main.account.id, ramId: null, token: main.token });
    callers.push({ name: 'sub-account', tenantId: other.account.id, ramId: ram.id, token: (await t.ctx.tokens.issue(other.account.id, ram.id)).token });
    // Members and a network in each tenant, so generated requests also name rows that exist (and
    // another tenant's).
    const names: string[] = [];
    const networks: string[] = [];
    for (const [i, tenant] of [main.account.id, other.account.id].entries()) {
      const [center, point1, point2, soft] = [`fz${i}center`, `fz${i}point1`, `fz${i}point2`, `fz${i}soft`];
      await seedMembers(t, tenant, [center, point1, point2]);
      const [softId] = await seedMembers(t, tenant, [soft], { router_type: 2 });
      networks.push((await seedNetwork(t, tenant, { center: [center], point: [point1, soft] })).network_number);
      if (i === 0) {
        const member = { tenant_id: tenant, id: softId! };
        callers.push({ name: 'member', tenantId: tenant, ramId: null, token: (await issueMemberSession(t.ctx, member)).token, member });
      }
      names.push(center, point1, point2, soft);
    }
    hints = {
      router_name: fc.constantFrom(...names),
      network_number: fc.constantFrom(...networks),
      center: fc.subarray(names, { maxLength: 2 }),
      point: fc.subarray(names),
      id: fc.integer({ min: 1, max: 6 }),
      ram_id: fc.integer({ min: 1, max: 6 }),
      role_id: fc.integer({ min: 1, max: 6 }),
      start_time: dateLike,
      end_time: dateLike,
      birthday: dateLike,
    };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  /** One request as `caller`; a token the call ended (logout, a refresh) is replaced by a new one. */
  async function send(caller: (typeof callers)[number], e: Endpoint, input: unknown, upload: { contentType: string; payload: Buffer } | null) {
    const headers: Record<string, string> = { authorization: `Bearer ${caller.token}` };
    const remoteAddress = `10.${(++ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
    const res =
      e.method === 'GET'
        ? await t.app.inject({ method: 'GET', url: endpointUrl(e), query: asQuery(input), headers, remoteAddress })
        : upload
          ? await t.app.inject({ method: 'POST', url: endpointUrl(e), payload: upload.payload, headers: { ...headers, 'content-type': upload.contentType }, remoteAddress })
          : await t.app.inject({ method: 'POST', url: endpointUrl(e), payload: JSON.stringify(input) ?? 'null', headers: { ...headers, 'content-type': 'application/json' }, remoteAddress });
    if (caller.member) {
      if (res.statusCode === 401) caller.token = (await issueMemberSession(t.ctx, caller.member)).token;
    } else if (res.statusCode === 401 || e.path === '/login/refresh') caller.token = (await t.ctx.tokens.issue(caller.tenantId, caller.ramId)).token;
    return res;
  }

  it('covers every route of the contract', () => {
    expect(t.app.endpoints.length).toBeGreaterThan(70);
  });

  it(`${RUNS[dialect]} requests per route, as a main account and as a sub-account (and per member route, as a member)`, async () => {
    expect(t.app.endpoints.filter((x) => x.endpoint.access === 'member').length).toBeGreaterThan(0);
    for (const caller of callers) {
      for (const { endpoint: e } of t.app.endpoints) {
        if (caller.member && e.access !== 'member') continue;
        const part = e.method === 'GET' ? e.query : e.body;
        const request = fc.tuple(inputsFor(part, hints), e.method === 'POST' ? fc.option(multipart, { freq: 8, nil: null }) : fc.constant(null));
        await fc.assert(
          fc.asyncProperty(request, async ([input, upload]) => {
            const res = await send(caller, e, input, upload);
            try {
              checkAnswer(e, res);
            } catch (err) {
              throw new Error(`${caller.name} ${e.method} ${e.path} answered ${res.statusCode} ${res.body.slice(0, 200)}`, { cause: err });
            }
          }),
          { numRuns: RUNS[dialect] },
        );
      }
    }
  }, 600_000);
});
