import {
  addNetworkMember,
  addRouter,
  CODE,
  createNetwork,
  createRole,
  deleteNetwork,
  deleteRam,
  deleteRole,
  editData,
  editNetwork,
  editRam,
  exportRouters,
  listRam,
  listRouters,
  LIMITS,
  M,
  networkInfo,
  networkStatus,
  noteRouter,
  onlineLog,
  ramInfo,
  ramLog,
  removeNetworkMember,
  renameNetwork,
  routerHardware,
  routerSoftware,
  softwareLoginLog,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, ramToken, type TestApp } from '../test/helpers';
import { seedMembers, seedNetwork } from '../test/networks';

// Inputs that once answered HTTP 500 (a probe of every route), each refused cleanly now.

type Main = Awaited<ReturnType<typeof newAccount>>;

/** Calls with a raw body or query (anything JSON can carry), as the probe did. */
async function raw(t: TestApp, e: Endpoint, token: string, input: unknown) {
  const res = await t.app.inject({
    method: e.method,
    url: `/api/v1${e.path}`,
    ...(e.method === 'POST' ? { payload: JSON.stringify(input), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } } : {}),
    ...(e.method === 'GET' ? { query: input as Record<string, string>, headers: { authorization: `Bearer ${token}` } } : {}),
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string }) };
}

describeEachDatabase('hardening: what the guard reads before validation', (t) => {
  let a: Main;
  let network: string;
  let limited: string;
  let unlimited: string;

  beforeAll(async () => {
    a = await newAccount(t());
    await seedMembers(t(), a.account.id, ['hardc1', 'hardp1']);
    network = (await seedNetwork(t(), a.account.id, { center: ['hardc1'], point: ['hardp1'] })).network_number;
    const role = { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: [network] } };
    limited = await ramToken(t(), a.account.id, role);
    unlimited = await ramToken(t(), a.account.id);
  });

  const posts = [editNetwork, renameNetwork, deleteNetwork, addNetworkMember, removeNetworkMember];
  it('a network_number that is not a string or a number names no network: 403 for a role limited to networks, 422 for everyone else, and nothing changes', async () => {
    const values: unknown[] = [{ toString: 1 }, { valueOf: 1 }, [], [network], [[]], null, true, {}];
    for (const e of posts) {
      for (const value of values) {
        const body = { network_number: value, network_name: '新名', router_name: 'hardp1', member_type: 'point', center: ['hardc1'] };
        const before = await t().snapshot();
        const seen = {
          main: (await raw(t(), e, a.token, body)).code,
          limited: (await raw(t(), e, limited, body)).code,
          unlimited: (await raw(t(), e, unlimited, body)).code,
        };
        expect({ path: e.path, value, seen }).toEqual({ path: e.path, value, seen: { main: CODE.invalid, limited: CODE.forbidden, unlimited: CODE.invalid } });
        expect(await t().snapshot()).toEqual(before);
      }
    }
    // A query string carries text, or a key given twice: a list, refused by validation (reading is
    // open to every role; the service shows a role only its networks).
    for (const e of [networkInfo, networkStatus]) {
      const url = `/api/v1${e.path}?network_number=${network}&network_number=${network}`;
      const code = async (token: string) => (await t().app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).json().code;
      expect({ path: e.path, main: await code(a.token), limited: await code(limited) }).toEqual({ path: e.path, main: CODE.invalid, limited: CODE.invalid });
    }
  });

  it('a role limited to networks still reaches its own network by number', async () => {
    expect((await raw(t(), networkInfo, limited, { network_number: network })).code).toBe(CODE.ok);
    expect((await raw(t(), renameNetwork, limited, { network_number: network, network_name: '改名' })).code).toBe(CODE.ok);
  });
});

describeEachDatabase('hardening: dates', (t) => {
  let a: Main;
  let ramId: number;

  beforeAll(async () => {
    a = await newAccount(t());
    ramId = (await newRamAccount(t(), a.account.id)).id;
  });

  const dated = () => [
    { e: ramLog, extra: { ram_id: ramId } },
    { e: softwareLoginLog, extra: {} },
    { e: onlineLog, extra: {} },
    { e: onlineLog, extra: { mode: 'pop' } },
  ];

  it('refuses impossible dates and dates out of range with a clear message, in either field', async () => {
    const cases: [string, string][] = [
      ['9999-12-31', M.dateOutOfRange],
      ['2101-01-01', M.dateOutOfRange],
      ['1899-12-31', M.dateOutOfRange],
      ['9999-99-99', M.logDateInvalid],
      ['9999-13-01', M.logDateInvalid],
      ['2025-02-29', M.logDateInvalid],
      ['2024-02-30', M.logDateInvalid],
      ['2024-1-01', M.logDateInvalid],
      ['2024-01-01T00:00', M.logDateInvalid],
      ['+02024-01-01', M.logDateInvalid],
    ];
    for (const { e, extra } of dated()) {
      for (const [date, msg] of cases) {
        for (const field of ['start_time', 'end_time']) {
          const res = await t().call(e, { token: a.token, query: { ...extra, [field]: date } });
          expect({ path: e.path, field, date, res: { code: res.code, msg: res.msg } }).toEqual({ path: e.path, field, date, res: { code: CODE.invalid, msg } });
        }
      }
    }
  });

  it('takes the first and the last day of the range, and refuses a start after the end', async () => {
    for (const { e, extra } of dated()) {
      const whole = await t().call(e, { token: a.token, query: { ...extra, start_time: LIMITS.dateMin, end_time: LIMITS.dateMax } });
      expect({ path: e.path, code: whole.code }).toEqual({ path: e.path, code: CODE.ok });
      const reversed = await t().call(e, { token: a.token, query: { ...extra, start_time: '2025-03-02', end_time: '2025-03-01' } });
      expect({ path: e.path, msg: reversed.msg }).toEqual({ path: e.path, msg: M.logRangeInvalid });
    }
  });
});

describeEachDatabase('hardening: control characters and lone surrogates', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: 50 }).where('id', '=', a.account.id).execute();
    await seedMembers(t(), a.account.id, ['nulsearch1', 'ctrlhw1']);
    await seedMembers(t(), a.account.id, ['nulsearch2'], { router_type: 2 });
  });

  it('drops them from a search, which then finds what the rest of the text finds (the FTS5 index and ILIKE alike)', async () => {
    // A query string cannot carry a lone surrogate (it arrives as U+FFFD); bodies can, and are refused.
    for (const search of ['nul\u0000sea', 'nuls\u0007earch', '\u0000nulsearch\u001f', 'nul\u007fsearch']) {
      for (const type of [1, 2]) {
        const res = await t().call(listRouters, { token: a.token, query: { type, search } });
        expect({ search, type, res: { code: res.code, names: res.data?.map((r) => r.router_name) } }).toEqual({
          search,
          type,
          res: { code: CODE.ok, names: [type === 1 ? 'nulsearch1' : 'nulsearch2'] },
        });
      }
      expect((await t().call(routerSoftware, { token: a.token, query: { search } })).data).toHaveLength(1);
      expect((await t().call(routerHardware, { token: a.token, query: { search } })).data).toHaveLength(1);
      expect((await t().call(exportRouters, { token: a.token, query: { search } })).file?.body.length).toBeGreaterThan(0);
      expect((await t().call(listRam, { token: a.token, query: { search } })).code).toBe(CODE.ok);
    }
    // Nothing but controls: no search at all.
    expect((await t().call(listRouters, { token: a.token, query: { type: 1, search: '\u0000\u0000\u0000' } })).count).toBe(2);
  });

  it('refuses them in every text that is stored, and nothing changes', async () => {
    const cases: [Endpoint, Record<string, unknown>][] = [
      [addRouter, { router_type: 2, username: 'ab\u0000cd', password: 'pass1234' }],
      [addRouter, { router_type: 2, username: 'abcd', password: 'pass1234', note: '研发\u0007部' }],
      [noteRouter, { router_name: 'ctrlhw1', note: '备注\u001b[31m' }],
      [noteRouter, { router_name: 'ctrlhw1', note: '半个\ud83d字' }],
      [createNetwork, { network_name: '网\u0000络', center: ['ctrlhw1'] }],
      [createRole, { name: '角色\u0085\u0000', note: '' }],
      [createRole, { name: '角色', note: '\udc00' }],
      [editData, { nickname: '昵称', birthday: '1990-01-01', industry: 'I1', occupation: '工程师\u0000' }],
    ];
    for (const [e, body] of cases) {
      const before = await t().snapshot();
      const res = await t().call(e, { token: a.token, body });
      expect({ path: e.path, body, res: { code: res.code, msg: res.msg } }).toEqual({ path: e.path, body, res: { code: CODE.invalid, msg: M.textInvalidChars } });
      expect(await t().snapshot()).toEqual(before);
    }
    // A whole character beyond the BMP (a surrogate pair) is text like any other.
    expect((await t().call(noteRouter, { token: a.token, body: { router_name: 'ctrlhw1', note: '备注😀' } })).code).toBe(CODE.ok);
  });
});

describeEachDatabase('hardening: ids are positive integers or their decimal strings', (t) => {
  let a: Main;
  let ramId: number;
  let roleId: number;

  beforeAll(async () => {
    a = await newAccount(t());
    ({ id: ramId, roleId } = await newRamAccount(t(), a.account.id));
  });

  it('refuses true, arrays, exponents, fractions, padding and hex, which once read as a number, and nothing changes', async () => {
    const loose = (id: number) => [true, [id], [[id]], `${id}e0`, `${id}.0`, id + 0.5, ` ${id}`, `0x${id.toString(16)}`, `+${id}`, '', null, { id }];
    for (const [e, id, body] of [
      [deleteRam, ramId, (v: unknown) => ({ id: v })],
      [editRam, ramId, (v: unknown) => ({ id: v, role_id: roleId, nickname: '改名' })],
      [editRam, ramId, (v: unknown) => ({ id: ramId, role_id: v, nickname: '改名' })],
      [deleteRole, roleId, (v: unknown) => ({ id: v })],
    ] as const) {
      for (const value of loose(id)) {
        const before = await t().snapshot();
        const res = await raw(t(), e, a.token, body(value));
        expect({ path: e.path, value, code: res.code }).toEqual({ path: e.path, value, code: CODE.invalid });
        expect(await t().snapshot()).toEqual(before);
      }
    }
    for (const value of ['true', `${ramId}e0`, ` ${ramId}`, `0x${ramId.toString(16)}`, '']) {
      expect({ value, code: (await raw(t(), ramInfo, a.token, { id: value })).code }).toEqual({ value, code: CODE.invalid });
    }
    // The real thing, as a number and as its digits.
    expect((await raw(t(), ramInfo, a.token, { id: String(ramId) })).code).toBe(CODE.ok);
    expect((await raw(t(), deleteRam, a.token, { id: ramId })).code).toBe(CODE.ok);
  });
});

// Bytes the HTTP parser refuses (long URLs, bad request lines, bad headers) are core/clientErrors.test.ts's.
describe('hardening: requests that never reach a route answer in the envelope', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    return () => t.close();
  });

  it('an Authorization header of any shape: 2001, never a 500', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ tid: 1, rid: 0, jti: 'x', exp: 9e9 })}.`;
    const strange = `${b64({ alg: 'HS256' })}.${b64({ tid: 'x', rid: [], jti: {}, exp: 'never' })}.AAAA`;
    for (const authorization of ['', 'Bearer', 'Bearer ', 'Basic YTpi', 'Bearer a.b.c', `Bearer ${unsigned}`, `Bearer ${strange}`, `Bearer ${'x'.repeat(8000)}`, 'Bearer \u00ff\u00fe', 'Bearer a b']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/account/info', headers: { authorization } });
      expect({ authorization: authorization.slice(0, 30), status: res.statusCode, code: res.json().code }).toEqual({ authorization: authorization.slice(0, 30), status: 401, code: CODE.tokenInvalid });
      const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/login/refresh', headers: { authorization } });
      expect(refresh.json().code).toBe(CODE.tokenInvalid);
    }
  });

  it('a URL that cannot be decoded', async () => {
    for (const url of ['/api/v1/%zz', '/api/v1/ram/info%', '/%E0%A4%A']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 200, body: { code: CODE.invalid, msg: M.requestMalformed } });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
