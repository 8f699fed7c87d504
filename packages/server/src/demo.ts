import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simulate, type Simulation } from '@hublink/agent';
import { M, ROUTER_TYPE } from '@hublink/contract';
import type { BuiltApp } from './app';
import type { Ctx } from './core/context';
import { hashPassword } from './core/passwords';

/*
 * `hublink start --demo`: a demo tenant with a network of simulated devices, so that a newcomer sees a
 * live console at once. The tenant is made once and kept; its password is new on every start (printed,
 * never stored in clear).
 */

export const DEMO = {
  username: 'demo',
  /** The member suffix software members sign in with (username@sign). */
  sign: 'demo01',
  centers: ['demo_hq', 'demo_dc'],
  points: ['demo_shop1', 'demo_shop2', 'demo_shop3', 'demo_factory'],
  software: ['alice', 'bob'],
  network: { number: 'DEMO000001', name: M.demoNetworkName },
  plan: { network_level: 2, network_router_count: 50, network_center_count: 2, dns_quantity: 4, ram_quantity: 10 },
} as const;

export interface DemoDevice {
  kind: 'router' | 'app';
  /** router_name, or username@sign for an app. */
  name: string;
  secret: string;
}

export interface DemoTenant {
  username: string;
  password: string;
  devices: DemoDevice[];
}

/** Makes the demo tenant when it is missing, gives it a new password, and returns its devices' credentials. */
export async function ensureDemoTenant(ctx: Ctx, now = Date.now()): Promise<DemoTenant> {
  const password = randomBytes(6).toString('base64url');
  const deviceSecret = randomBytes(9).toString('base64url');
  const [passwordHash, secretHash] = await Promise.all([hashPassword(password), hashPassword(deviceSecret)]);
  await ctx.db.transaction().execute(async (trx) => {
    let account = await trx.selectFrom('account').select('id').where('username_key', '=', DEMO.username).executeTakeFirst();
    if (!account) {
      account = await trx
        .insertInto('account')
        .values({
          username: DEMO.username,
          username_key: DEMO.username,
          nickname: M.demoNickname,
          password_hash: passwordHash,
          phone: null,
          email: null,
          sign: DEMO.sign,
          domain: DEMO.username,
          ...DEMO.plan,
          create_time: now,
          update_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    }
    const tenantId = account.id;
    await trx.updateTable('account').set({ password_hash: passwordHash, status: 1, update_time: now }).where('id', '=', tenantId).execute();

    const members = [
      ...[...DEMO.centers, ...DEMO.points].map((name) => ({ name, router_type: ROUTER_TYPE.hardware })),
      ...DEMO.software.map((name) => ({ name, router_type: ROUTER_TYPE.software })),
    ];
    const have = new Set((await trx.selectFrom('member').select('router_key').where('tenant_id', '=', tenantId).execute()).map((m) => m.router_key));
    const missing = members.filter((m) => !have.has(m.name));
    if (missing.length > 0) {
      await trx
        .insertInto('member')
        .values(missing.map((m) => ({ tenant_id: tenantId, router_name: m.name, router_key: m.name, router_type: m.router_type, note: M.demoMemberNote, secret_hash: secretHash, area_number: null, phone: null, online_time: null, create_time: now, update_time: now })))
        .execute();
    }
    // Every demo device gets this start's secret; credentials of an earlier start no longer count.
    await trx.updateTable('member').set({ secret_hash: secretHash, status: 1 }).where('tenant_id', '=', tenantId).execute();
    await trx.deleteFrom('device_credential').where('tenant_id', '=', tenantId).execute();

    const net = await trx.selectFrom('network').select('id').where('tenant_id', '=', tenantId).where('network_number', '=', DEMO.network.number).executeTakeFirst();
    if (!net) {
      const created = await trx
        .insertInto('network')
        .values({ tenant_id: tenantId, network_number: DEMO.network.number, network_name: DEMO.network.name, create_time: now, update_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ids = new Map((await trx.selectFrom('member').select(['id', 'router_key']).where('tenant_id', '=', tenantId).execute()).map((m) => [m.router_key, m.id]));
      const rows = [
        ...DEMO.centers.map((n) => ({ name: n, member_type: 'center' })),
        ...[...DEMO.points, ...DEMO.software].map((n) => ({ name: n, member_type: 'point' })),
      ];
      await trx
        .insertInto('network_member')
        .values(rows.map((r) => ({ tenant_id: tenantId, network_id: created.id, member_id: ids.get(r.name)!, member_type: r.member_type, create_time: now })))
        .execute();
      await ctx.events.emit(trx, { type: 'network.changed', tenant_id: tenantId, network_id: created.id, change: 'created' });
    }
  });
  return {
    username: DEMO.username,
    password,
    devices: [
      ...[...DEMO.centers, ...DEMO.points].map((name) => ({ kind: 'router' as const, name, secret: deviceSecret })),
      ...DEMO.software.map((name) => ({ kind: 'app' as const, name: `${name}@${DEMO.sign}`, secret: deviceSecret })),
    ],
  };
}

/** After the server listens: the demo tenant, its simulated devices, and how to sign in (on stdout, once). */
export async function startDemo(app: BuiltApp): Promise<Simulation> {
  const tenant = await ensureDemoTenant(app.ctx);
  const { port } = app.server.address() as AddressInfo;
  const sim = simulate({
    url: `http://127.0.0.1:${port}`,
    members: tenant.devices.map((d) => (d.kind === 'router' ? { kind: 'router' as const, router_name: d.name, secret: d.secret } : { kind: 'app' as const, login: d.name, secret: d.secret })),
    startSpreadMs: 2_000,
  });
  process.once('SIGINT', () => void sim.stop());
  process.once('SIGTERM', () => void sim.stop());
  console.log(
    [
      '',
      'HubLink demo',
      `  console:  http://localhost:${port}/login`,
      `  account:  ${tenant.username}`,
      `  password: ${tenant.password}   (new on every start)`,
      `  devices:  ${tenant.devices.length} simulated (${DEMO.network.name}, ${DEMO.network.number})`,
      '',
    ].join('\n'),
  );
  return sim;
}
