import { createHash } from 'node:crypto';
import {
  API_TOKEN_PATTERN,
  CODE,
  changeRamPassword,
  createApiToken,
  createNetwork,
  createRole,
  deleteRole,
  editRole,
  fmt,
  LIMITS,
  listApiTokens,
  listNetworks,
  listRam,
  logout,
  M,
  networkInfo,
  refreshToken,
  renameNetwork,
  revokeApiToken,
  type RoleAuth,
} from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../core/actor';
import { describeEachDatabase, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../../test/networks';

type Main = Awaited<ReturnType<typeof newAccount>>;

const READ_ONLY_NETWORK_EDIT: RoleAuth = {
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: 1, delete: 0, network: ['N-A1'] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
};

async function newToken(t: TestApp, main: Main, body: Record<string, unknown> = {}) {
  const res = await t.call(createApiToken, { token: main.token, body: { name: '自动化', scope: 'read', expires_days: 30, ...body } });
  if (res.code !== 200) throw new Error(`create token: ${res.msg}`);
  return res.data!;
}

async function role(t: TestApp, main: Main, name: string, auth: RoleAuth): Promise<number> {
  const res = await t.call(createRole, { token: main.token, body: { name, note: '', auth } });
  if (res.code !== 200) throw new Error(`create role: ${res.msg}`);
  return res.data!.id;
}

const tokenRow = (t: TestApp, id: number) => t.db.selectFrom('api_token').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describeEachDatabase('personal API tokens: /api_token/create, /api_token/lists, /api_token/revoke', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    const [m1] = await seedFreshMembers(t(), a.account.id, 1);
    const [m2] = await seedFreshMembers(t(), a.account.id, 1);
    await seedNetwork(t(), a.account.id, { network_number: 'N-A1', name: 'A网络一', center: [m1!] });
    await seedNetwork(t(), a.account.id, { network_number: 'N-A2', name: 'A网络二', center: [m2!] });
    const [mb] = await seedFreshMembers(t(), b.account.id, 1);
    await seedNetwork(t(), b.account.id, { network_number: 'N-B1', name: 'B网络', center: [mb!] });
  });

  it('creates a token, shows it once, and keeps only its SHA-256', async () => {
    const res = await t().call(createApiToken, { token: a.token, body: { name: ' 运维脚本 ', scope: 'read', expires_days: 90 } });
    expect(res).toMatchObject({ code: 200, msg: M.apiTokenCreated });
    const made = res.data!;
    expect(made.token).toMatch(API_TOKEN_PATTERN);
    expect(made).toMatchObject({ name: '运维脚本', scope: 'read', role_id: null, role_name: '', state: 'active', last_used_time: '', last_used_ip: '' });
    expect(made.token.startsWith(made.prefix)).toBe(true);
    expect(made.prefix).toMatch(/^hlk_[A-Za-z0-9_-]{8}$/);
    const row = await tokenRow(t(), made.id);
    expect(row.token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(row.expires_at - row.create_time).toBe(90 * 86_400_000);

    // The list never shows it again; no table anywhere holds the token or its random part.
    const list = await t().call(listApiTokens, { token: a.token, query: { page: 1 } });
    const listed = list.data!.find((x) => x.id === made.id)!;
    expect(listed).toEqual({ ...made, token: undefined, last_used_time: '', last_used_ip: '' } as unknown as typeof listed);
    expect(JSON.stringify(list)).not.toContain(made.token.slice(made.prefix.length));
    const dump = JSON.stringify(await t().snapshot()) + JSON.stringify(await t().db.selectFrom('api_token').selectAll().execute());
    expect(dump).not.toContain(made.token.slice(made.prefix.length));
  });

  it('refuses bad input with the contract messages and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '  ' }, M.apiTokenNameRequired],
      [{ name: 'x'.repeat(LIMITS.apiTokenNameMax + 1) }, fmt(M.apiTokenNameTooLong, { n: LIMITS.apiTokenNameMax })],
      [{ scope: 'admin' }, M.apiTokenScopeRequired],
      [{ expires_days: 31 }, M.apiTokenExpiryRequired],
      [{ expires_days: 0 }, M.apiTokenExpiryRequired],
      [{ expires_days: 10_000 }, M.apiTokenExpiryRequired],
      [{ scope: 'role' }, M.apiTokenRoleRequired],
    ];
    const before = await t().db.selectFrom('api_token').selectAll().execute();
    for (const [over, msg] of cases) {
      const res = await t().call(createApiToken, { token: a.token, body: { name: '脚本', scope: 'read', expires_days: 30, ...over } });
      expect(res, JSON.stringify(over)).toMatchObject({ code: CODE.invalid, msg });
    }
    // A role of another tenant is no role of this one.
    const bRole = await role(t(), b, 'B的角色', { ...READ_ONLY_NETWORK_EDIT, 'easylink.network': { create: 0, edit: 1, delete: 0, network: ['N-B1'] } });
    expect(await t().call(createApiToken, { token: a.token, body: { name: '脚本', scope: 'role', role_id: bRole, expires_days: 30 } })).toMatchObject({
      code: CODE.invalid,
      msg: M.apiTokenRoleMissing,
    });
    expect(await t().db.selectFrom('api_token').selectAll().execute()).toEqual(before);
  });

  it('answers 2001 for an unknown or malformed token, 2002 for an expired one, 2003 when the account is disabled', async () => {
    const unknown = `hlk_${'A'.repeat(43)}`;
    for (const bad of [unknown, 'hlk_short', `${unknown}x`]) {
      const res = await t().call(listNetworks, { token: bad, query: { page: 1 } });
      expect(res).toMatchObject({ code: CODE.tokenInvalid, msg: M.apiTokenInvalid, status: 401 });
    }
    const made = await newToken(t(), a);
    await t().db.updateTable('api_token').set({ expires_at: Date.now() - 1 }).where('id', '=', made.id).execute();
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 } })).toMatchObject({ code: CODE.tokenExpired, msg: M.apiTokenExpired, status: 401 });
    const list = await t().call(listApiTokens, { token: a.token, query: { page: 1, limit: 100 } });
    expect(list.data!.find((x) => x.id === made.id)?.state).toBe('expired');

    const c = await newAccount(t());
    const cTok = await newToken(t(), c);
    await t().db.updateTable('account').set({ status: 0 }).where('id', '=', c.account.id).execute();
    expect(await t().call(listNetworks, { token: cTok.token, query: { page: 1 } })).toMatchObject({ code: CODE.accountDisabled, msg: M.accountDisabled, status: 401 });
  });

  it('revokes: the token stops at once and leaves the list; a second revoke is 204', async () => {
    const made = await newToken(t(), a);
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 } })).toMatchObject({ code: 200 });
    expect(await t().call(revokeApiToken, { token: a.token, body: { id: made.id } })).toMatchObject({ code: 200, msg: M.apiTokenRevoked });
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 } })).toMatchObject({ code: CODE.tokenInvalid, msg: M.apiTokenInvalid, status: 401 });
    const list = await t().call(listApiTokens, { token: a.token, query: { page: 1, limit: 100 } });
    expect(list.data!.map((x) => x.id)).not.toContain(made.id);
    expect(await t().call(revokeApiToken, { token: a.token, body: { id: made.id } })).toMatchObject({ code: CODE.notFound, msg: M.apiTokenNotFound });
    expect((await tokenRow(t(), made.id)).revoked_at).not.toBeNull();
  });

  it('a read-only token reads what the main account reads and changes nothing', async () => {
    const made = await newToken(t(), a);
    const nets = await t().call(listNetworks, { token: made.token, query: { page: 1 } });
    expect(nets.code).toBe(200);
    expect(nets.data!.map((n) => n.network_number).sort()).toEqual(['N-A1', 'N-A2']);
    expect(await t().call(listRam, { token: made.token, query: { page: 1 } })).toMatchObject({ code: 200 });
    const before = await t().snapshot();
    expect(await t().call(renameNetwork, { token: made.token, body: { network_number: 'N-A1', network_name: '改名' } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedPermission,
    });
    const [m] = await seedFreshMembers(t(), a.account.id, 1);
    const afterSeed = await t().snapshot();
    expect(await t().call(createNetwork, { token: made.token, body: { network_name: '新网络', center: [m!] } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedPermission,
    });
    expect(await t().snapshot()).toEqual(afterSeed);
    expect(before.network).toEqual(afterSeed.network);
  });

  it('no token manages tokens, changes a password or signs out; sub-accounts cannot call the token routes', async () => {
    const read = await newToken(t(), a);
    const roleId = await role(t(), a, '全部权限', { ...READ_ONLY_NETWORK_EDIT, 'easylink.network': { create: 1, edit: 1, delete: 1, network: [] } });
    const scoped = await newToken(t(), a, { scope: 'role', role_id: roleId });
    for (const tok of [read.token, scoped.token]) {
      expect(await t().call(listApiTokens, { token: tok, query: { page: 1 } })).toMatchObject({ code: CODE.forbidden, msg: M.apiTokenNotAllowed });
      expect(await t().call(createApiToken, { token: tok, body: { name: 'x', scope: 'read', expires_days: 30 } })).toMatchObject({
        code: CODE.forbidden,
        msg: M.apiTokenNotAllowed,
      });
      expect(await t().call(revokeApiToken, { token: tok, body: { id: read.id } })).toMatchObject({ code: CODE.forbidden, msg: M.apiTokenNotAllowed });
      expect(await t().call(changeRamPassword, { token: tok, body: { old_password: 'a', password: 'b', newPassword: 'b' } })).toMatchObject({
        code: CODE.forbidden,
        msg: M.apiTokenNotAllowed,
      });
      expect(await t().call(logout, { token: tok })).toMatchObject({ code: CODE.forbidden, msg: M.apiTokenNotAllowed });
      // Nor is it a session to refresh into a console token.
      expect(await t().call(refreshToken, { token: tok })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
    }
    // Both still work: none of the refused calls revoked anything.
    expect(await t().call(listNetworks, { token: read.token, query: { page: 1 } })).toMatchObject({ code: 200 });
    const sub = await ramToken(t(), a.account.id);
    expect(await t().call(listApiTokens, { token: sub, query: { page: 1 } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    expect(await t().call(createApiToken, { token: sub, body: { name: 'x', scope: 'read', expires_days: 30 } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedMainOnly,
    });
    expect(await t().call(revokeApiToken, { token: sub, body: { id: read.id } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    expect((await tokenRow(t(), read.id)).revoked_at).toBeNull();
  });

  it('a role token has its role’s rights, network list included, follows the role’s changes and dies with it', async () => {
    const roleId = await role(t(), a, '指定网络编辑', READ_ONLY_NETWORK_EDIT);
    const made = await newToken(t(), a, { scope: 'role', role_id: roleId, name: '编辑脚本' });
    expect(made).toMatchObject({ scope: 'role', role_id: roleId, role_name: '指定网络编辑', state: 'active' });

    const nets = await t().call(listNetworks, { token: made.token, query: { page: 1 } });
    expect(nets.data!.map((n) => n.network_number)).toEqual(['N-A1']);
    expect(await t().call(renameNetwork, { token: made.token, body: { network_number: 'N-A1', network_name: '令牌改名' } })).toMatchObject({ code: 200 });
    expect(await t().call(renameNetwork, { token: made.token, body: { network_number: 'N-A2', network_name: '令牌改名' } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedNetwork,
    });
    const [m] = await seedFreshMembers(t(), a.account.id, 1);
    expect(await t().call(createNetwork, { token: made.token, body: { network_name: '令牌网络', center: [m!] } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedPermission,
    });
    // Main-only calls are refused as they are to a sub-account.
    expect(await t().call(listRam, { token: made.token, query: { page: 1 } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });

    // The role changes: the token's rights with it, at once.
    const wider: RoleAuth = { ...READ_ONLY_NETWORK_EDIT, 'easylink.network': { create: 1, edit: 0, delete: 0, network: [] } };
    expect(await t().call(editRole, { token: a.token, body: { id: roleId, name: '指定网络编辑', note: '', auth: wider } })).toMatchObject({ code: 200 });
    const created = await t().call(createNetwork, { token: made.token, body: { network_name: '令牌网络', center: [m!] } });
    expect(created).toMatchObject({ code: 200 });
    expect(await t().call(renameNetwork, { token: made.token, body: { network_number: 'N-A1', network_name: '再改名' } })).toMatchObject({
      code: CODE.forbidden,
      msg: M.deniedPermission,
    });
    expect((await t().call(listNetworks, { token: made.token, query: { page: 1 } })).data!.length).toBe(3);

    // The role is deleted: the token is unusable, and the list says why.
    expect(await t().call(deleteRole, { token: a.token, body: { id: roleId } })).toMatchObject({ code: 200 });
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 } })).toMatchObject({ code: CODE.tokenInvalid, msg: M.apiTokenRoleDeleted, status: 401 });
    const list = await t().call(listApiTokens, { token: a.token, query: { page: 1, limit: 100 } });
    expect(list.data!.find((x) => x.id === made.id)).toMatchObject({ state: 'role_deleted', role_name: '' });
  });

  it('keeps tenants apart: B neither lists nor revokes A’s tokens, and A’s token never reads B’s data', async () => {
    const made = await newToken(t(), a, { name: 'A的令牌' });
    const bList = await t().call(listApiTokens, { token: b.token, query: { page: 1, limit: 100 } });
    expect(bList.data!.map((x) => x.id)).not.toContain(made.id);
    expect(await t().call(revokeApiToken, { token: b.token, body: { id: made.id } })).toMatchObject({ code: CODE.notFound, msg: M.apiTokenNotFound });
    expect((await tokenRow(t(), made.id)).revoked_at).toBeNull();

    const nets = await t().call(listNetworks, { token: made.token, query: { page: 1, limit: 100 } });
    expect(nets.data!.map((n) => n.network_number)).not.toContain('N-B1');
    const info = await t().call(networkInfo, { token: made.token, query: { network_number: 'N-B1' } });
    expect(info.code).toBe(CODE.notFound);
    expect(JSON.stringify(info)).not.toContain('B网络');
  });

  it('sets apiTokenId on the actor, and writes the last use at most once a minute', async () => {
    const made = await newToken(t(), a);
    const actor = await authenticate(t().db, t().ctx.tokens, `Bearer ${made.token}`, { ip: '198.51.100.7' });
    expect(actor).toMatchObject({ tenantId: a.account.id, ramId: null, role: null, apiTokenId: made.id, apiTokenScope: 'read' });
    const first = await tokenRow(t(), made.id);
    expect(first.last_used_at).not.toBeNull();
    expect(first.last_used_ip).toBe('198.51.100.7');

    // Calls within the minute do not write.
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 }, ip: '198.51.100.8' })).toMatchObject({ code: 200 });
    expect(await tokenRow(t(), made.id)).toMatchObject({ last_used_at: first.last_used_at, last_used_ip: '198.51.100.7' });

    // A minute later the next call does, with its address; the list shows it.
    await t()
      .db.updateTable('api_token')
      .set({ last_used_at: first.last_used_at! - LIMITS.apiTokenLastUseSeconds * 1000 })
      .where('id', '=', made.id)
      .execute();
    expect(await t().call(listNetworks, { token: made.token, query: { page: 1 }, ip: '198.51.100.9' })).toMatchObject({ code: 200 });
    const later = await tokenRow(t(), made.id);
    expect(later.last_used_ip).toBe('198.51.100.9');
    expect(later.last_used_at!).toBeGreaterThanOrEqual(first.last_used_at!);
    const listed = (await t().call(listApiTokens, { token: a.token, query: { page: 1, limit: 100 } })).data!.find((x) => x.id === made.id)!;
    expect(listed.last_used_ip).toBe('198.51.100.9');
    expect(listed.last_used_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  describe('the limit per tenant', () => {
    it(`refuses the token after ${LIMITS.apiTokensPerTenant} usable ones; a revoked or expired one frees a place`, async () => {
      const c = await newAccount(t());
      const made = [];
      for (let i = 0; i < LIMITS.apiTokensPerTenant; i++) made.push(await newToken(t(), c, { name: `令牌${i}` }));
      const over = await t().call(createApiToken, { token: c.token, body: { name: '多一个', scope: 'read', expires_days: 7 } });
      expect(over).toMatchObject({ code: CODE.invalid, msg: fmt(M.apiTokenQuotaFull, { n: LIMITS.apiTokensPerTenant }) });
      await t().call(revokeApiToken, { token: c.token, body: { id: made[0]!.id } });
      await newToken(t(), c, { name: '替补' });
      await t().db.updateTable('api_token').set({ expires_at: Date.now() - 1 }).where('id', '=', made[1]!.id).execute();
      await newToken(t(), c, { name: '再替补' });
      expect(await t().call(createApiToken, { token: c.token, body: { name: '多一个', scope: 'read', expires_days: 7 } })).toMatchObject({ code: CODE.invalid });
    });
  });
});
