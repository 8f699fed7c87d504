import { changeRamPassword, CODE, defineEndpoint, editRole, logout, M, noData, ramLog, type RoleAuth } from '@hublink/contract';
import { z } from 'zod';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../test/helpers';
import { invalid, ok } from './errors';
import { route, type App } from './http';

/*
 * Test-only calls that declare permissions the way the network, member and monitoring areas will, so
 * the guard and the operation log are proven through route() itself: a role's flags reach the guard,
 * and every successful mutating call of a sub-account (and nothing else) is logged.
 */
const routerCreate = defineEndpoint({ path: '/probe/router_create', method: 'POST', access: 'easylink.router.create', response: noData });
const monitorDelete = defineEndpoint({ path: '/probe/monitor_delete', method: 'POST', access: 'monitor.delete', response: noData });
const monitorView = defineEndpoint({ path: '/probe/monitor_view', method: 'GET', access: 'monitor.view', response: z.object({ seen: z.boolean() }) });
const networkEdit = defineEndpoint({
  path: '/probe/network_edit',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ network_number: z.string() }),
  response: noData,
});
const refusing = defineEndpoint({ path: '/probe/refusing', method: 'POST', access: 'user', response: noData });

async function probes(app: App) {
  await app.register(
    async (api) => {
      const ctx = (app as App & { ctx: Parameters<typeof route>[1] }).ctx;
      route(api as App, ctx, routerCreate, async () => ok(null, M.saved));
      route(api as App, ctx, monitorDelete, async () => ok(null, M.deleted));
      route(api as App, ctx, monitorView, async () => ok({ seen: true }));
      route(api as App, ctx, networkEdit, async () => ok(null, M.modified));
      route(api as App, ctx, refusing, async () => {
        throw invalid('不行');
      });
    },
    { prefix: '/api/v1' },
  );
}

const role = (over: Partial<{ router: 0 | 1; network: string[]; networkEdit: 0 | 1; monitorDelete: 0 | 1 }> = {}): RoleAuth => ({
  'easylink.router': { create: over.router ?? 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: over.networkEdit ?? 0, delete: 0, network: over.network ?? [] },
  monitor: { view: 1, create: 0, edit: 0, delete: over.monitorDelete ?? 0 },
});

/** The sub-account's log once the events of the calls so far are delivered (the ram module writes it from them). */
const logsOf = async (t: TestApp, ramId: number) => {
  await t.ctx.events.settle();
  return t.db.selectFrom('ram_log').select(['tenant_id', 'ram_id', 'mode', 'action', 'message']).where('ram_id', '=', ramId).orderBy('id').execute();
};

describeEachDatabase(
  'the guard and the operation log, through route()',
  (t) => {
    let main: Awaited<ReturnType<typeof newAccount>>;

    beforeAll(async () => {
      main = await newAccount(t());
    });

    async function subAccount(auth: RoleAuth) {
      const ram = await newRamAccount(t(), main.account.id, { auth });
      const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
      return { ...ram, token };
    }

    it("refuses a permission the sub-account's role lacks (403) and allows one it grants; view is always on", async () => {
      const without = await subAccount(role());
      expect(await t().call(routerCreate, { token: without.token })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
      expect(await t().call(monitorDelete, { token: without.token })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
      expect(await t().call(monitorView, { token: without.token })).toMatchObject({ code: 200, data: { seen: true } });

      const withIt = await subAccount(role({ router: 1, monitorDelete: 1 }));
      expect(await t().call(routerCreate, { token: withIt.token })).toMatchObject({ code: 200 });
      expect(await t().call(monitorDelete, { token: withIt.token })).toMatchObject({ code: 200 });
      // The main account needs no role.
      expect(await t().call(routerCreate, { token: main.token })).toMatchObject({ code: 200 });
    });

    it("limits a network-scoped call to the role's networks when it lists any", async () => {
      const scoped = await subAccount(role({ networkEdit: 1, network: ['N1'] }));
      expect(await t().call(networkEdit, { token: scoped.token, body: { network_number: 'N1' } })).toMatchObject({ code: 200 });
      expect(await t().call(networkEdit, { token: scoped.token, body: { network_number: 'N2' } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
      const everywhere = await subAccount(role({ networkEdit: 1 }));
      expect(await t().call(networkEdit, { token: everywhere.token, body: { network_number: 'N2' } })).toMatchObject({ code: 200 });
    });

    it('applies a role changed by the main account from the next call', async () => {
      const ram = await subAccount(role());
      expect((await t().call(routerCreate, { token: ram.token })).code).toBe(CODE.forbidden);
      const grant = await t().call(editRole, { token: main.token, body: { id: ram.roleId, name: '可创建', auth: role({ router: 1 }) } });
      expect(grant.code).toBe(200);
      expect((await t().call(routerCreate, { token: ram.token })).code).toBe(200);
      await t().call(editRole, { token: main.token, body: { id: ram.roleId, name: '不可创建', auth: role() } });
      expect((await t().call(routerCreate, { token: ram.token })).code).toBe(CODE.forbidden);
    });

    it("logs a sub-account's successful mutating calls, with area, call and answer; not its reads or refusals", async () => {
      const ram = await subAccount(role({ router: 1, networkEdit: 1, network: ['N1'] }));
      expect((await t().call(routerCreate, { token: ram.token })).code).toBe(200);
      expect((await t().call(networkEdit, { token: ram.token, body: { network_number: 'N1' } })).code).toBe(200);
      // Not logged: reads, refusals by the guard, by validation and by the service.
      await t().call(monitorView, { token: ram.token });
      await t().call(monitorDelete, { token: ram.token });
      await t().call(networkEdit, { token: ram.token, body: { network_number: 'N2' } });
      await t().call(networkEdit, { token: ram.token, body: {} });
      await t().call(refusing, { token: ram.token });
      await t().call(changeRamPassword, { token: ram.token, body: { old_password: 'wrong-one', password: 'pass5678', reset_password: 'pass5678' } });
      // Real calls of the contract are logged the same way.
      expect((await t().call(changeRamPassword, { token: ram.token, body: { old_password: ram.password, password: 'pass5678', reset_password: 'pass5678' } })).code).toBe(200);

      const t0 = main.account.id;
      expect(await logsOf(t(), ram.id)).toEqual([
        { tenant_id: t0, ram_id: ram.id, mode: 'probe', action: 'router_create', message: M.saved },
        { tenant_id: t0, ram_id: ram.id, mode: 'probe', action: 'network_edit', message: M.modified },
        { tenant_id: t0, ram_id: ram.id, mode: 'ram', action: 'password', message: M.modified },
      ]);

      // The main account reads it through /ram/log, newest first.
      const res = await t().call(ramLog, { token: main.token, query: { page: 1, ram_id: ram.id } });
      expect(res).toMatchObject({ code: 200, count: 3 });
      expect(res.data!.map((r) => `${r.mode}/${r.action}`)).toEqual(['ram/password', 'probe/network_edit', 'probe/router_create']);
    });

    it('logs signing out, and never the main account', async () => {
      const ram = await subAccount(role({ router: 1 }));
      expect((await t().call(logout, { token: ram.token })).code).toBe(200);
      expect(await logsOf(t(), ram.id)).toEqual([{ tenant_id: main.account.id, ram_id: ram.id, mode: 'login', action: 'logout', message: M.logoutSuccess }]);
      const before = await t().db.selectFrom('ram_log').selectAll().execute();
      expect((await t().call(routerCreate, { token: main.token })).code).toBe(200);
      expect(await t().db.selectFrom('ram_log').selectAll().execute()).toEqual(before);
    });
  },
  { beforeReady: probes },
);
