import { CODE, ROUTER_TYPE, selfLogin, type Endpoint } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, tablesOf, type TestApp } from '../test/helpers';
import { SEEDED_MEMBER_SECRET, seedMembers } from '../test/networks';
import type { RoleAuth } from './core/actor';

/**
 * The permission model over every route the app registers, so routes added later are covered
 * without touching this file:
 * - no route but a public one answers without a token;
 * - a sub-account cannot call a main-account route, nor a permission route its role does not grant;
 * - tenant B, calling any route with tenant A's identifiers, neither reads nor changes A's data;
 * - a member route (a member's self-service) takes a member's session only, and B's member, calling it
 *   with A's identifiers, reads and changes nothing of A's.
 */

/** A's data carries this marker (and A's phone) so a leak shows up in any answer B gets. */
const MARK = 'zqxa';
const NO_RIGHTS: RoleAuth = {
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
};

/** Every row that belongs to a tenant, in every table of the database. */
async function rowsOf(t: TestApp, tenantId: number) {
  const out: Record<string, unknown[]> = {};
  for (const table of await tablesOf(t)) {
    const cols = table.columns;
    const key = table.name === 'account' ? 'id' : cols.includes('tenant_id') ? 'tenant_id' : cols.includes('account_id') ? 'account_id' : null;
    if (!key || table.name === 'session') continue;
    // Dynamic table names: the typed builder cannot know them.
    const db = t.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    out[table.name] = await db.selectFrom(table.name).selectAll().where(key, '=', tenantId).orderBy(cols[0]!).execute();
  }
  return out;
}

/** Plausible values for the fields calls take, with A's ids wherever an id goes. */
function sampleBody(schemaKeys: string[], id: number): Record<string, unknown> {
  const byName: Record<string, unknown> = {
    page: 1,
    limit: 10,
    type: 'all',
    nickname: 'B改名',
    name: 'B改名',
    network_name: 'B改名',
    note: 'B',
    username: 'bchanged1',
    password: 'bchanged1',
    reset_password: 'bchanged1',
    old_password: 'bchanged1',
    new_password: 'bchanged1',
    status: 0,
    auth: NO_RIGHTS,
  };
  const body: Record<string, unknown> = {};
  for (const k of schemaKeys) {
    if (k in byName) body[k] = byName[k];
    else if (k === 'id' || k.endsWith('_id')) body[k] = k === 'message_id' ? [id] : id;
    else if (k.endsWith('_number') || k === 'router_name') body[k] = `${MARK}${id}`;
  }
  return body;
}

const keysOf = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'shape' in schema ? Object.keys((schema as { shape: object }).shape) : [];

describeEachDatabase('permission model over every registered route', (t) => {
  let endpoints: Endpoint[];
  let a: Awaited<ReturnType<typeof newAccount>>;
  let b: Awaited<ReturnType<typeof newAccount>>;
  let ramToken: string;
  const aIds: number[] = [];

  beforeAll(async () => {
    endpoints = t().app.endpoints.map((e) => e.endpoint);
    a = await newAccount(t(), { username: `${MARK}main${Date.now() % 1000}`, phone: '+86 13911110001' });
    b = await newAccount(t(), { phone: '+86 13922220002' });
    const ram = await newRamAccount(t(), a.account.id, { username: `${MARK}ram`, nickname: `${MARK}子` });
    const now = Date.now();
    const msg = await t()
      .db.insertInto('message')
      .values({ tenant_id: a.account.id, title: `${MARK}消息`, content: `<p>${MARK}</p>`, type: '系统', status: 0, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t().db.updateTable('ram_role').set({ name: `${MARK}角色` }).where('id', '=', ram.roleId).execute();
    // The last id is beyond the 32-bit id columns: every route must refuse it cleanly, never with a 500.
    aIds.push(ram.id, ram.roleId, msg.id, 99_999_999_999);
    // Members and networks are named, not numbered: A has them under the names B's samples use.
    const member = (name: string, router_type: number) => ({
      tenant_id: a.account.id,
      router_name: name,
      router_key: name,
      router_type,
      note: `${MARK}备注`,
      secret_hash: 'x',
      area_number: null,
      phone: null,
      online_time: null,
      create_time: now,
      update_time: now,
    });
    const members = await t()
      .db.insertInto('member')
      .values([...new Set(aIds)].map((id, i) => member(`${MARK}${id}`, i % 2 === 0 ? 1 : 2)))
      .returning('id')
      .execute();
    for (const id of new Set(aIds)) {
      const net = await t()
        .db.insertInto('network')
        .values({ tenant_id: a.account.id, network_number: `${MARK}${id}`, network_name: `${MARK}网络`, create_time: now, update_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t()
        .db.insertInto('network_member')
        .values(members.map((m, i) => ({ tenant_id: a.account.id, network_id: net.id, member_id: m.id, member_type: i === 0 ? 'center' : 'point', create_time: now })))
        .execute();
    }

    // Support tickets are named too, and carry the marker in every text.
    await t()
      .db.insertInto('support_ticket')
      .values(
        [...new Set(aIds)].map((id) => ({
          tenant_id: a.account.id,
          ticket_number: `${MARK}${id}`,
          title: `${MARK}工单`,
          content: `${MARK}概述`,
          type: 1,
          status: 1,
          ram_id: null,
          raised_by: MARK,
          grade: null,
          appraise_content: null,
          appraise_time: null,
          create_time: now,
          update_time: now,
        })),
      )
      .execute();

    const bRam = await newRamAccount(t(), b.account.id, { auth: NO_RIGHTS });
    ramToken = (await signIn(t(), bRam.login, bRam.password, { ram: true })).data!.access_token;
  });

  it('covers the calls of the contract', () => {
    expect(endpoints.length).toBeGreaterThan(15);
  });

  it('answers every non-public route without a token with 2001', async () => {
    for (const e of endpoints.filter((x) => x.access !== 'public')) {
      const res = await t().call(e, { body: {}, query: {} });
      expect({ path: e.path, code: res.code }).toEqual({ path: e.path, code: CODE.tokenInvalid });
    }
  });

  it('refuses a sub-account every main-account route and every permission its role lacks (403)', async () => {
    // View permissions are always on (spec 1 §5): a role without any right still reads (next test).
    const guarded = endpoints.filter((x) => x.access !== 'public' && x.access !== 'user' && x.access !== 'member' && !x.access.endsWith('.view'));
    expect(guarded.length).toBeGreaterThan(10);
    for (const e of guarded) {
      const before = await t().snapshot();
      const res = await t().call(e, { token: ramToken, body: sampleBody(keysOf(e.body), 1), query: sampleBody(keysOf(e.query), 1) as Record<string, unknown> });
      expect({ path: e.path, code: res.code }).toEqual({ path: e.path, code: CODE.forbidden });
      const after = await t().snapshot();
      expect({ path: e.path, ...after, session: [] }).toEqual({ path: e.path, ...before, session: [] });
    }
  });

  it('lets a sub-account without any right call every view route', async () => {
    const views = endpoints.filter((x) => x.access.endsWith('.view'));
    expect(views.length).toBeGreaterThan(0);
    for (const e of views) {
      const res = await t().call(e, { token: ramToken, query: sampleBody(keysOf(e.query), 1) as Record<string, unknown> });
      expect({ path: e.path, code: res.code }).not.toEqual({ path: e.path, code: CODE.forbidden });
    }
  });

  it("never lets tenant B read or change tenant A's data through any route", async () => {
    const before = await rowsOf(t(), a.account.id);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['account', 'member', 'monitor_config', 'monitor_contact', 'support_ticket']));
    const reached = new Set<string>();
    for (const e of endpoints.filter((x) => x.access !== 'public' && !x.path.startsWith('/login/'))) {
      for (const id of aIds) {
        const res = await t().call(e, { token: b.token, body: sampleBody(keysOf(e.body), id), query: sampleBody(keysOf(e.query), id) as Record<string, unknown> });
        if (res.code !== CODE.invalid) reached.add(e.path);
        const text = JSON.stringify(res);
        expect({ path: e.path, leaked: text.includes(MARK) || text.includes('13911110001') }).toEqual({ path: e.path, leaked: false });
        expect({ path: e.path, code: res.code }).not.toEqual({ path: e.path, code: CODE.internal });
      }
    }
    expect(await rowsOf(t(), a.account.id)).toEqual(before);
    // The samples get past validation into most services, so the check above means something.
    expect(reached.size).toBeGreaterThan(15);
    expect([...reached]).toEqual(
      expect.arrayContaining([
        '/ram/info',
        '/ram/edit',
        '/ram/delete',
        '/ram_role/info',
        '/ram_role/delete',
        '/message/info',
        '/message/delete_message',
        '/router/info',
        '/router/note',
        '/router/delete',
        '/network/info',
        '/network/status',
        '/network/name',
        '/network/delete',
        '/network/remove_member',
        '/ticket/info',
        '/ticket/delete',
      ]),
    );
  });
  it("answers every member route to an account's token with 2001: a member's session only", async () => {
    const members = endpoints.filter((x) => x.access === 'member');
    expect(members.length).toBeGreaterThan(0);
    for (const e of members) {
      for (const token of [a.token, ramToken]) {
        const res = await t().call(e, { token, body: sampleBody(keysOf(e.body), aIds[0]!), query: sampleBody(keysOf(e.query), aIds[0]!) as Record<string, unknown> });
        expect({ path: e.path, code: res.code }).toEqual({ path: e.path, code: CODE.tokenInvalid });
      }
    }
  });

  it("never lets a member of tenant B read or change tenant A's data through any member route", async () => {
    const name = `bself${Date.now() % 100_000}`;
    await seedMembers(t(), b.account.id, [name], { router_type: ROUTER_TYPE.software });
    const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', b.account.id).executeTakeFirstOrThrow()).sign;
    const session = await t().call(selfLogin, { body: { login: `${name}@${sign}`, password: SEEDED_MEMBER_SECRET }, ip: t().nextIp() });
    expect(session.code).toBe(CODE.ok);
    const before = await rowsOf(t(), a.account.id);
    const members = endpoints.filter((x) => x.access === 'member' && x.path !== '/self/logout');
    const reached = new Set<string>();
    for (const e of members) {
      for (const id of aIds) {
        const res = await t().call(e, { token: session.data!.token, body: sampleBody(keysOf(e.body), id), query: sampleBody(keysOf(e.query), id) as Record<string, unknown> });
        expect({ path: e.path, code: res.code }).not.toEqual({ path: e.path, code: CODE.tokenInvalid });
        if (res.code !== CODE.invalid) reached.add(e.path);
        const text = JSON.stringify(res);
        expect({ path: e.path, leaked: text.includes(MARK) || text.includes('13911110001') }).toEqual({ path: e.path, leaked: false });
        expect({ path: e.path, code: res.code }).not.toEqual({ path: e.path, code: CODE.internal });
      }
    }
    expect(await rowsOf(t(), a.account.id)).toEqual(before);
    expect([...reached].sort()).toEqual([...new Set(members.map((e) => e.path))].sort());
  });
});
