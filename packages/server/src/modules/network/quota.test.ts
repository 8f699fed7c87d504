import {
  addNetworkMember,
  CODE,
  createNetwork,
  deleteNetwork,
  editNetwork,
  fmt,
  listNetworks,
  M,
  networkConfig,
  networkInfo,
  networkStatus,
  removeNetworkMember,
} from '@hublink/contract';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/until';
import { createNetworkThroughApi, networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';
import type { Actor } from '../../core/actor';
import { lockTenant } from '../../core/tenantLock';
import { countedRouterUse } from './quota';
import * as networks from './service';

type Main = Awaited<ReturnType<typeof newAccount>>;

const quota = async (t: TestApp, main: Main) => (await t.call(networkConfig, { token: main.token })).data!;
const setPlan = (t: TestApp, main: Main, over: { network_router_count?: number; network_center_count?: number }) =>
  t.db.updateTable('account').set(over).where('id', '=', main.account.id).execute();

/** network_status as every read of the tenant's networks gives it. */
async function statuses(t: TestApp, main: Main, numbers: string[]) {
  const list = await t.call(listNetworks, { token: main.token, query: { page: 1 } });
  const out = new Set(list.data!.map((n) => n.network_status));
  for (const network_number of numbers) {
    out.add((await t.call(networkInfo, { token: main.token, query: { network_number } })).data!.network_status);
    out.add((await t.call(networkStatus, { token: main.token, query: { network_number } })).data!.network_status);
  }
  return [...out];
}

async function refusedFull(t: TestApp, main: Main, endpoint: typeof createNetwork | typeof editNetwork | typeof addNetworkMember, body: Record<string, unknown>, n = 10) {
  const before = await networkTables(t);
  expect(await t.call(endpoint, { token: main.token, body })).toMatchObject({ code: CODE.invalid, msg: fmt(M.networkQuotaFull, { n }) });
  expect(await networkTables(t)).toEqual(before);
}

describeEachDatabase('networks: the member quota', (t) => {
  it('counts distinct networked members: exactly at the limit passes, one more is refused, members already networked are free', async () => {
    const main = await newAccount(t());
    const h = await seedFreshMembers(t(), main.account.id, 12);
    const first = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: h.slice(1, 6) });
    expect(await quota(t(), main)).toEqual({ network_router_use: 6, network_router_count: 10, network_level: 1, network_center_count: 2 });
    // Reusing networked members does not raise the use.
    const second = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: [...h.slice(1, 3), ...h.slice(6, 10)] });
    expect((await quota(t(), main)).network_router_use).toBe(10);

    await refusedFull(t(), main, createNetwork, { network_name: '超额', point: [h[0], h[10]] });
    await refusedFull(t(), main, editNetwork, { network_number: first, network_name: '超额', center: [h[0]], point: [...h.slice(1, 6), h[10]] });
    await refusedFull(t(), main, addNetworkMember, { network_number: first, router_name: h[10], member_type: 'point' });

    // At the limit, members that are networked elsewhere can still be moved in, and a swap keeps the use.
    expect(await t().call(addNetworkMember, { token: main.token, body: { network_number: first, router_name: h[6], member_type: 'point' } })).toMatchObject({ code: 200 });
    expect(await t().call(createNetwork, { token: main.token, body: { network_name: '复用', point: [h[7], h[8]] } })).toMatchObject({ code: 200 });
    expect(
      await t().call(editNetwork, { token: main.token, body: { network_number: second, network_name: '交换', center: [h[0]], point: [...h.slice(1, 3), ...h.slice(6, 9), h[10]] } }),
    ).toMatchObject({ code: 200 });
    expect((await quota(t(), main)).network_router_use).toBe(10);
    expect(await statuses(t(), main, [first, second])).toEqual([1]);
  });

  it('disables every network while the plan is below the use, allows changes that do not raise it, and recovers', async () => {
    const main = await newAccount(t());
    const h = await seedFreshMembers(t(), main.account.id, 11);
    const a = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: h.slice(1, 6) });
    const b = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: h.slice(6, 10) });
    expect(await statuses(t(), main, [a, b])).toEqual([1]);

    // The operator lowers the plan to 7 while 10 members are networked.
    await setPlan(t(), main, { network_router_count: 7 });
    expect(await quota(t(), main)).toMatchObject({ network_router_use: 10, network_router_count: 7 });
    expect(await statuses(t(), main, [a, b])).toEqual([0]);

    // Raising the use is refused; keeping it or lowering it is allowed, even with a newcomer.
    await refusedFull(t(), main, addNetworkMember, { network_number: a, router_name: h[10], member_type: 'point' }, 7);
    await refusedFull(t(), main, createNetwork, { network_name: '新', point: [h[10]] }, 7);
    await refusedFull(t(), main, editNetwork, { network_number: b, network_name: 'b', center: [h[0]], point: [...h.slice(6, 10), h[10]] }, 7);
    expect(await t().call(editNetwork, { token: main.token, body: { network_number: b, network_name: 'b', center: [h[0]], point: [h[6], h[7], h[10]] } })).toMatchObject({
      code: 200,
    });
    expect((await quota(t(), main)).network_router_use).toBe(9);
    expect(await t().call(editNetwork, { token: main.token, body: { network_number: b, network_name: 'b', center: [h[0]], point: [h[6], h[7], h[10]] } })).toMatchObject({
      code: 200,
    });
    expect(await t().call(createNetwork, { token: main.token, body: { network_name: '同员', point: [h[1], h[2]] } })).toMatchObject({ code: 200 });
    for (const name of [h[10], h[7]]) {
      expect(await t().call(removeNetworkMember, { token: main.token, body: { network_number: b, router_name: name } })).toMatchObject({ code: 200 });
    }
    expect(await quota(t(), main)).toMatchObject({ network_router_use: 7, network_router_count: 7 });
    expect(await statuses(t(), main, [a, b])).toEqual([1]);

    // And with the plan raised again the tenant may grow.
    await setPlan(t(), main, { network_router_count: 8 });
    expect(await t().call(addNetworkMember, { token: main.token, body: { network_number: b, router_name: h[10], member_type: 'point' } })).toMatchObject({ code: 200 });
    await refusedFull(t(), main, addNetworkMember, { network_number: b, router_name: h[7], member_type: 'point' }, 8);
  });

  it('lets a network over a lowered center limit keep its centers but not add one', async () => {
    const main = await newAccount(t());
    const h = await seedFreshMembers(t(), main.account.id, 5);
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!, h[1]!], point: [h[2]!] });
    await setPlan(t(), main, { network_center_count: 1 });
    const msg = fmt(M.networkCenterLimit, { n: 1 });
    expect(await t().call(editNetwork, { token: main.token, body: { network_number: number, network_name: '网', center: [h[0], h[1]], point: [h[2], h[3]] } })).toMatchObject({
      code: 200,
    });
    expect(await t().call(editNetwork, { token: main.token, body: { network_number: number, network_name: '网', center: [h[0], h[1], h[4]], point: [h[2]] } })).toMatchObject({
      code: CODE.invalid,
      msg,
    });
    expect(await t().call(addNetworkMember, { token: main.token, body: { network_number: number, router_name: h[4], member_type: 'center' } })).toMatchObject({
      code: CODE.invalid,
      msg,
    });
    expect(await t().call(createNetwork, { token: main.token, body: { network_name: '二中心', center: [h[0], h[1]] } })).toMatchObject({ code: CODE.invalid, msg });
    expect(await t().call(createNetwork, { token: main.token, body: { network_name: '一中心', center: [h[0]], point: [h[1]] } })).toMatchObject({ code: 200 });
  });

  it('gives the last free place to one of several racing creates and adds', async () => {
    const main = await newAccount(t());
    const h = await seedFreshMembers(t(), main.account.id, 17);
    const { network_number } = await seedNetwork(t(), main.account.id, { point: h.slice(0, 9) });
    const racers = h.slice(9);
    const results = await Promise.all(
      racers.map((name, i) =>
        i % 2 === 0
          ? t().call(createNetwork, { token: main.token, body: { network_name: `抢${i}`, point: [name] } })
          : t().call(addNetworkMember, { token: main.token, body: { network_number, router_name: name, member_type: 'point' } }),
      ),
    );
    expect(results.map((r) => r.code).sort()).toEqual([200, ...racers.slice(1).map(() => CODE.invalid)]);
    expect((await quota(t(), main)).network_router_use).toBe(10);
  });

  it('makes a change wait while another change of the tenant holds the lock, then judges it on the result', async () => {
    const main = await newAccount(t());
    const h = await seedFreshMembers(t(), main.account.id, 11);
    const { id: networkId } = await seedNetwork(t(), main.account.id, { point: h.slice(0, 9) });
    const tenth = (await t().db.selectFrom('member').select('id').where('router_key', '=', h[9]!.toLowerCase()).executeTakeFirstOrThrow()).id;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    let holderPid = 0;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t()
      .db.transaction()
      .execute(async (trx) => {
        await lockTenant(t().ctx, trx, main.account.id);
        if (t().ctx.dialect === 'postgres') holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        locked();
        await released;
        // The holder takes the last place just before it lets go.
        await trx.insertInto('network_member').values({ tenant_id: main.account.id, network_id: networkId, member_id: tenth, member_type: 'point', create_time: Date.now() }).execute();
      });
    await isLocked;
    let settled = false;
    const racing = t()
      .call(createNetwork, { token: main.token, body: { network_name: '等待', point: [h[10]] } })
      .finally(() => (settled = true));
    if (t().ctx.dialect === 'postgres') {
      // The racing change is seen blocked by the holder, and has not answered.
      await until(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`.execute(t().db);
        return rows[0]!.n > 0;
      }, 'the racing change waits for the lock');
      expect(settled).toBe(false);
    }
    // On SQLite the racing change waits for the one write transaction; on both, the answer below
    // (quota full, 10 used) is only possible if it was judged after the holder's insert.
    release();
    await holder;
    expect(await racing).toMatchObject({ code: CODE.invalid, msg: fmt(M.networkQuotaFull, { n: 10 }) });
    expect((await quota(t(), main)).network_router_use).toBe(10);
  });

  it('retries with a new number when the drawn one is taken', async () => {
    const main = await newAccount(t());
    const other = await newAccount(t());
    const [mine] = await seedFreshMembers(t(), main.account.id, 1);
    const [theirs] = await seedFreshMembers(t(), other.account.id, 1);
    const taken = await seedNetwork(t(), other.account.id, { point: [theirs!] });
    const drawn = [taken.network_number, 'NFRESHNUMBER1'];
    const actor: Actor = { tenantId: main.account.id, ramId: null, sessionId: '', role: null };
    const number = await networks.create(t().ctx, actor, { network_name: '重试', center: [], point: [mine!] }, () => drawn.shift()!);
    expect(number).toBe('NFRESHNUMBER1');
    expect(await t().db.selectFrom('network').select(['tenant_id', 'network_name']).where('network_number', '=', number).executeTakeFirst()).toEqual({
      tenant_id: main.account.id,
      network_name: '重试',
    });
    expect(networks.randomNetworkNumber()).toMatch(/^N[A-Z2-7]{11}$/);
  });
});

describeEachDatabase('networks: the database keeps network_router_use', (t) => {
  /** The kept numbers equal the ones counted from the member lists. */
  async function consistent(tenantId: number) {
    const kept = await t().db.selectFrom('account').select('network_router_use').where('id', '=', tenantId).executeTakeFirstOrThrow();
    const members = await t().db.selectFrom('member').select(['id', 'network_count']).where('tenant_id', '=', tenantId).orderBy('id').execute();
    const rows = await t().db.selectFrom('network_member').select('member_id').where('tenant_id', '=', tenantId).execute();
    expect(members.map((m) => [m.id, m.network_count])).toEqual(members.map((m) => [m.id, rows.filter((r) => r.member_id === m.id).length]));
    const counted = await countedRouterUse(t().db, tenantId);
    expect(kept.network_router_use).toBe(counted);
    return counted;
  }

  it('follows creates, edits, adds, removals, deleted networks and deleted members, whoever makes them', async () => {
    const main = await newAccount(t());
    const id = main.account.id;
    const h = await seedFreshMembers(t(), id, 8);
    expect(await consistent(id)).toBe(0);
    const a = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: h.slice(1, 4) });
    const b = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: [h[1]!, h[4]!] });
    expect(await consistent(id)).toBe(5);
    await t().call(editNetwork, { token: main.token, body: { network_number: b, network_name: 'b', center: [h[0]], point: [h[5], h[6]] } });
    expect(await consistent(id)).toBe(6);
    await t().call(addNetworkMember, { token: main.token, body: { network_number: a, router_name: h[7], member_type: 'point' } });
    await t().call(removeNetworkMember, { token: main.token, body: { network_number: a, router_name: h[3] } });
    expect(await consistent(id)).toBe(6);
    // Seeds and other modules write the tables directly.
    const seeded = await seedNetwork(t(), id, { point: [h[3]!, h[5]!] });
    expect(await consistent(id)).toBe(7);
    // A member in three networks is deleted (the member list's delete): it leaves the use once.
    await t().db.deleteFrom('member').where('router_key', '=', h[0]!.toLowerCase()).execute();
    expect(await consistent(id)).toBe(6);
    await t().db.deleteFrom('member').where('router_key', 'in', [h[5]!.toLowerCase(), h[2]!.toLowerCase()]).execute();
    expect(await consistent(id)).toBe(4);
    // h3 is only in the seeded network.
    await t().db.deleteFrom('network').where('id', '=', seeded.id).execute();
    expect(await consistent(id)).toBe(3);
    await t().call(deleteNetwork, { token: main.token, body: { network_number: a } });
    expect(await consistent(id)).toBe(1);
    await t().db.deleteFrom('network_member').where('tenant_id', '=', id).execute();
    expect(await consistent(id)).toBe(0);
  });
});
