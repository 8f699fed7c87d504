import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simulate, type Simulation } from '@hublink/agent';
import {
  CLIENT_PLATFORMS,
  CODE,
  createRam,
  createRole,
  createSupportTicket,
  createTicket,
  DIAL_MODE,
  endpointUrl,
  FR_STATUS,
  M,
  ROUTER_TYPE,
  setDns,
  setSoftwareMode,
  SUPPORT_TYPES,
  TICKET_LIMITS,
  type Endpoint,
} from '@hublink/contract';
import type { BuiltApp } from './app';
import { insertAccount } from './domain/accounts';
import type { Actor } from './core/actor';
import type { Ctx } from './core/context';
import { revokeTenantDeviceCredentials } from './domain/deviceCredentials';
import { createMembers } from './domain/members';
import { hashPassword } from './core/passwords';
import { publishAnnouncement } from './modules/announcement';
import { publishRelease } from './modules/download';
import { sendMessage } from './modules/message';
import { create as createNetwork } from './modules/network/service';
import { addArea, createResource } from './modules/pop';
import { assignAsOperator } from './modules/saas';
import { grantService } from './modules/service';
import { replyAsOperator } from './modules/ticket';
import { networkOfTenant } from './domain/networks';

/*
 * `hublink start --demo`: a demo tenant with a network of simulated devices, so that a newcomer sees a
 * live console at once. The tenant is made once and kept; its password is new on every start (printed,
 * never stored in clear). Every screen a first visitor opens has something in it (seedDemo): the
 * network's configuration history, a role and a sub-account, a SaaS device, a POP resource, an
 * announcement, a message, a service, a support ticket with an answer, a network work order and client
 * releases, each made by the service (or the call) that owns it.
 */

export const DEMO = {
  username: 'demo',
  /** The member suffix software members sign in with (username@sign). */
  sign: 'demo01',
  centers: ['demo_hq', 'demo_dc'],
  points: ['demo_shop1', 'demo_shop2', 'demo_shop3', 'demo_factory'],
  software: ['alice', 'bob'],
  /** A sub-account of a role limited to the demo network (its password is random: the main account can set one). */
  ram: 'ops',
  network: { number: 'DEMO000001', name: M.demoNetworkName },
  /** The hardware member the operator has made a SaaS device. */
  saas: 'demo_factory',
  /** The DNS servers the demo network's history sets (two versions after its creation). */
  dns: ['223.5.5.5', '119.29.29.29'],
  plan: { network_level: 2, network_router_count: 50, network_center_count: 2, dns_quantity: 4, ram_quantity: 10 },
} as const;

export interface DemoDevice {
  kind: 'router' | 'app';
  /** router_name, or username@sign for an app. */
  name: string;
  secret: string;
}

export interface DemoTenant {
  tenantId: number;
  username: string;
  password: string;
  devices: DemoDevice[];
}

/** Makes the demo tenant when it is missing, gives it a new password, and returns its devices' credentials. */
export async function ensureDemoTenant(ctx: Ctx, now = Date.now()): Promise<DemoTenant> {
  const password = randomBytes(6).toString('base64url');
  const deviceSecret = randomBytes(9).toString('base64url');
  const [passwordHash, secretHash] = await Promise.all([hashPassword(password), hashPassword(deviceSecret)]);
  const tenantId = await ctx.db.transaction().execute(async (trx) => {
    let account = await trx.selectFrom('account').select('id').where('username_key', '=', DEMO.username).executeTakeFirst();
    if (!account) {
      account = {
        id: await insertAccount(trx, {
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
        }),
      };
    }
    const id = account.id;
    await trx.updateTable('account').set({ password_hash: passwordHash, status: 1, update_time: now }).where('id', '=', id).execute();

    const members = [
      ...[...DEMO.centers, ...DEMO.points].map((name) => ({ name, router_type: ROUTER_TYPE.hardware })),
      ...DEMO.software.map((name) => ({ name, router_type: ROUTER_TYPE.software })),
    ];
    const have = new Set((await trx.selectFrom('member').select('router_key').where('tenant_id', '=', id).execute()).map((m) => m.router_key));
    const missing = members.filter((m) => !have.has(m.name));
    if (missing.length > 0) {
      await createMembers(
        ctx,
        trx,
        id,
        missing.map((m) => ({ router_name: m.name, router_type: m.router_type, note: M.demoMemberNote, secret_hash: secretHash, source: 'console' })),
        now,
      );
    }
    // Every demo device gets this start's secret; credentials of an earlier start no longer count.
    await trx.updateTable('member').set({ secret_hash: secretHash, status: 1 }).where('tenant_id', '=', id).execute();
    await revokeTenantDeviceCredentials({ db: trx }, id);

    return id;
  });
  const net = await networkOfTenant(ctx.db, tenantId, DEMO.network.number, ['id']);
  if (!net) {
    // Through the network service, as the console creates one: its members, its first version, its compiled configuration.
    await createNetwork(ctx, mainActor(tenantId), { network_name: DEMO.network.name, center: [...DEMO.centers], point: [...DEMO.points, ...DEMO.software] }, () => DEMO.network.number);
  }
  return {
    tenantId,
    username: DEMO.username,
    password,
    devices: [
      ...[...DEMO.centers, ...DEMO.points].map((name) => ({ kind: 'router' as const, name, secret: deviceSecret })),
      ...DEMO.software.map((name) => ({ kind: 'app' as const, name: `${name}@${DEMO.sign}`, secret: deviceSecret })),
    ],
  };
}

/** The demo tenant's main account, as the services take a caller. */
const mainActor = (tenantId: number): Actor => ({ tenantId, ramId: null, sessionId: '', role: null });

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;

/**
 * Fills what a first visitor opens, each part only while it is empty (a kept demo tenant is not filled
 * twice). What the tenant does goes through its calls, as the main account (so the audit log and the
 * network's history have them, 主账号 demo); what the platform gives (a SaaS device, a POP resource, an
 * announcement, a message, a service, an adviser's answer, releases) through the operator's services.
 */
export async function seedDemo(app: BuiltApp, tenantId: number, now = Date.now()): Promise<void> {
  const { ctx } = app;
  const session = await ctx.tokens.issue(tenantId, null);
  const call = async <T>(endpoint: Endpoint, body: unknown): Promise<T> => {
    const res = await app.inject({ method: 'POST', url: endpointUrl(endpoint), headers: { authorization: `Bearer ${session.token}`, 'user-agent': 'HubLink demo' }, payload: body as object });
    const env = res.json<{ code: number; msg: string; data: T }>();
    if (env.code !== CODE.ok) throw new Error(`demo seed: ${endpoint.path} refused: ${env.msg}`);
    return env.data;
  };
  const none = async (table: 'ram_role' | 'saas_device' | 'network_fr' | 'message' | 'service' | 'support_ticket' | 'network_ticket') =>
    (await ctx.db.selectFrom(table).select('tenant_id').where('tenant_id', '=', tenantId).limit(1).execute()).length === 0;
  const network_number = DEMO.network.number;
  try {
    // Configuration history: two settings committed after the network's creation (versions 2 and 3).
    const versions = await ctx.db.selectFrom('network_version').select('version').where('tenant_id', '=', tenantId).execute();
    if (versions.length <= 1) {
      await call(setDns, { network_number, dns: DEMO.dns });
      await call(setSoftwareMode, { network_number, router_name: DEMO.software[0], mode: DIAL_MODE.centerFirst });
    }
    if (await none('ram_role')) {
      const role = await call<{ id: number }>(createRole, {
        name: M.demoRoleName,
        note: M.demoRoleNote,
        auth: {
          'easylink.router': { create: 0, edit: 1, delete: 0 },
          'easylink.network': { create: 0, edit: 1, delete: 0, network: [network_number] },
          monitor: { view: 1, create: 0, edit: 1, delete: 0 },
        },
      });
      await call(createRam, { role_id: role.id, nickname: M.demoRamNickname, username: DEMO.ram, password: randomBytes(9).toString('hex') });
    }
    if (await none('network_ticket')) {
      await call(createTicket, { network_number, ticket: { pop: ['north'], expired_time: TICKET_LIMITS.years[0], bandwidth: TICKET_LIMITS.submittedBandwidth }, pop_conf: {} });
    }
    if (await none('support_ticket')) {
      const { ticket_number } = await call<{ ticket_number: string }>(createSupportTicket, { title: M.demoTicketTitle, content: M.demoTicketContent, type: SUPPORT_TYPES[1]!.value });
      await replyAsOperator(ctx, ticket_number, { content: M.demoTicketReply, adviser: M.demoAdviser });
    }
  } finally {
    await ctx.tokens.revoke(session.sid);
  }
  if (await none('saas_device')) {
    await assignAsOperator(ctx, {
      tenantId,
      routerName: DEMO.saas,
      category: '',
      share: 1,
      bandwidth: 50,
      max_bandwidth: 100,
      expire_date: now + YEAR_MS,
      temp_bandwidth: 0,
      temp_start_date: null,
      temp_expire_date: null,
      ip: [],
    });
  }
  if (await none('network_fr')) {
    const fr = await createResource(ctx, { tenantId, name: M.demoPopName, status: FR_STATUS.valid, expireTime: now + YEAR_MS });
    await addArea(ctx, fr, { region: 'north', bandwidth: 100 });
  }
  if (await none('message')) await sendMessage(ctx, tenantId, { title: M.demoMessageTitle, content: M.demoMessageContent, type: 'network' });
  if (await none('service')) await grantService(ctx, tenantId, { service_name: M.demoServiceName, quantity: 1, start_time: now, expired_time: now + YEAR_MS });
  // Announcements and releases are the platform's, for every tenant: only on a platform that has none.
  if ((await ctx.db.selectFrom('announcement').select('id').limit(1).execute()).length === 0) {
    await publishAnnouncement(ctx, { title: M.demoAnnouncementTitle, tag: M.demoAnnouncementTag, content: M.demoAnnouncementContent });
  }
  if ((await ctx.db.selectFrom('client_release').select('id').limit(1).execute()).length === 0) {
    const body = Buffer.from(M.demoReleaseFile);
    for (const platform of CLIENT_PLATFORMS) {
      const linux = platform === 'linux' ? { panel: 'gui' as const, arch: 'amd64' as const } : {};
      await publishRelease(ctx, { platform, ...linux, version: '1.0.0', notes: M.demoReleaseNotes, file: { name: `hublink-demo-${platform}.txt`, body } });
    }
  }
}

/** After the server listens: the demo tenant, its simulated devices, and how to sign in (on stdout, once). */
export async function startDemo(app: BuiltApp): Promise<Simulation> {
  const tenant = await ensureDemoTenant(app.ctx);
  await seedDemo(app, tenant.tenantId);
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
