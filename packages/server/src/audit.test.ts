import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addNetworkMember,
  auditList,
  batchAddRouters,
  batchDeleteRoutersFile,
  CODE,
  createApiToken,
  createTicket,
  DELETE_COLUMNS,
  downloadLdapVerifyFile,
  IMPORT_COLUMNS,
  LIMITS,
  renameNetwork,
  exportNetwork,
  ROUTER_TYPE,
  saveLdap,
  uploadLdapCa,
  type Endpoint,
} from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codeFor } from '../test/codes';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, signIn, tablesOf, type TestApp, type TestAppOptions } from '../test/helpers';
import { uploadFile } from '../test/multipart';
import { seedFreshMembers, seedNetwork } from '../test/networks';
import { completeOrder, frOfTicket } from '../test/pop';
import { startSlapd, type Slapd } from '../test/slapd';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhookReceiver';
import { isAudited, keyColumnOf } from './db/owners';
import { freshEmail, freshMobile, prove } from './modules/account/fixtures';
import { grantFeature } from './modules/auth-source/fixtures';
import { configOf, directoryOf, listing, userNamed } from './modules/ldap/fixtures';
import { startTicket } from './modules/network-ticket';
import { freshName, memberCode, upload, workbook } from './modules/router/fixtures';
import { saasDevice } from './modules/saas/fixtures';
import { answered, upload as uploadImage, PNG } from './modules/ticket/fixtures';

/**
 * The audit walk (issue 18): every mutating route the app registers (POST, not public) is called
 * once on a seeded tenant by its recipe below, and must succeed and leave an audit entry whose
 * changes carry at least one changed field. Every such route has a recipe; a route added later fails
 * this test until it gets one.
 *
 * The fixtures are the modules' own: codes and identity proofs (modules/account/fixtures.ts), member
 * phone codes and workbooks (modules/router/fixtures.ts), multipart uploads, a POP resource from a
 * completed order (test/pop.ts), network work orders moved by the operator's transitions, a SaaS
 * device as the operator assigns it, the sign-in source feature flag, one slapd for the whole file
 * (test/slapd.ts, each database's tenant in an OU of its own) with a local web site for the LDAP
 * domain file, and a local webhook receiver (test/webhookReceiver.ts).
 *
 * NO_FIELD_CHANGE: calls whose nature is to change no audited field (what they write is
 * bookkeeping: codes, sessions, the outbox, a test delivery, a connection check); they must still
 * leave an entry.
 */

interface Walk {
  t: TestApp;
  main: Awaited<ReturnType<typeof newAccount>>;
  /** Fresh hardware members of the tenant, taken one by one by recipes that need their own. */
  member(): string;
  /** Fresh software members (the calls that act on software members only). */
  software(): string;
  network: { id: number; network_number: string };
  /** A network of two centers c and two points p (p[1] online) for the settings calls. */
  settings: { network_number: string; c: string[]; p: string[] };
  /** Another such network for the segment calls (the dynamic-routing flags are on). */
  segments: { network_number: string; c: string[]; p: string[] };
  /** A network of one center and two points for the POP calls and the work orders, and a three-area POP resource of the tenant. */
  pop: { network_number: string; c: string[]; p: string[]; fr: number; areas: number[] };
  ids: Record<string, number | string>;
  /** The file's directory (one slapd, with TLS for the CA upload) and this tenant's part of it (its base_dn). */
  ldap: { s: Slapd; base: string; domain: string; user: string; form: () => Record<string, unknown> };
  /** A local webhook receiver (test/webhookReceiver.ts) for /webhook/test. */
  hooks: WebhookReceiver;
}

/**
 * What a recipe calls with; `after` runs once the call succeeded (a password change signs in again).
 * `send` makes the call itself instead (the multipart uploads) and answers its envelope.
 */
type Recipe = (w: Walk) => Promise<{ body?: unknown; token?: string; after?: () => Promise<void>; send?: () => Promise<{ code: number; msg: string }> }>;

const NO_FIELD_CHANGE: Record<string, string> = {
  '/verify/send_code': 'sends a code: codes and the outbox are bookkeeping',
  '/verify/verify': 'checks a code: the identity proof it leaves is kept in the key-value store, not a table',
  '/login/logout': 'ends the session: sessions are bookkeeping, not audited',
  '/webhook/test': 'sends a test message to the given webhook now: nothing is stored',
  '/ldap/check': 'tries the connection and the bind with the form: nothing is stored',
  '/ldap/preview': 'reads the users the form selects: nothing is stored',
  '/webhooks/test': 'sends a test message to a stored webhook now: nothing is stored',
  '/webhooks/resend': 'puts a failed delivery back in its queue: deliveries are bookkeeping (db/owners.ts: not audited), the entry names the call',
};

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 100_000}${++seq}`;

/** The recipes, in the order they run (later ones use what earlier ones made). */
const RECIPES: Record<string, Recipe> = {
  '/account/edit_data': async () => ({ body: { nickname: '审计科技', birthday: '1990-05-20', industry: 'I12', occupation: '网络工程师' } }),
  '/account/edit_sign': async () => ({ body: { sign: `Au${Date.now() % 1_000_000}` } }),
  '/audit/setting': async () => ({ body: { retention_days: 90 } }),
  // Devices join by approval (issue 30): the setting, then a device the gateway recorded as waiting, approved, then refused.
  '/device_approval/setting': async () => ({ body: { enabled: 1 } }),
  '/device_approval/approve': async (w) => {
    const m = await w.t.db.selectFrom('member').select(['id', 'tenant_id']).where('router_key', '=', w.member().toLowerCase()).executeTakeFirstOrThrow();
    const now = Date.now();
    const row = await w.t.db
      .insertInto('device_approval')
      .values({ tenant_id: m.tenant_id, member_id: m.id, device_key: 'id:audit-walk', ip: '198.51.100.30', state: 'waiting', first_time: now, last_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    w.ids.device = row.id;
    return { body: { id: row.id } };
  },
  '/device_approval/refuse': async (w) => ({ body: { id: w.ids.device } }),
  '/network/create': async (w) => ({ body: { network_name: '审计新建', center: [w.member()], point: [w.member()] } }),
  '/network/name': async (w) => ({ body: { network_number: w.network.network_number, network_name: '审计改名' } }),
  '/network/add_member': async (w) => {
    w.ids.added = w.member();
    return { body: { network_number: w.network.network_number, router_name: w.ids.added, member_type: 'point' } };
  },
  '/network/remove_member': async (w) => ({ body: { network_number: w.network.network_number, router_name: w.ids.added } }),
  '/network/edit': async (w) => ({ body: { network_number: w.network.network_number, network_name: '审计编辑', center: [w.member()], point: [w.member()] } }),
  '/network/dns': async (w) => ({ body: { network_number: w.network.network_number, dns: ['223.5.5.5'] } }),
  '/network/ciphers': async (w) => ({ body: { network_number: w.network.network_number, ncp_ciphers: 'sm' } }),
  '/network/edit_routing': async ({ settings: s }) => ({ body: { network_number: s.network_number, type: 2, main_router: s.c[0], secondary_router: s.c[1] } }),
  '/network/default_route': async ({ settings: s }) => ({ body: { network_number: s.network_number, router_name: s.p[0], model: 1, metric: 90 } }),
  '/network/software_mode': async ({ settings: s }) => ({ body: { network_number: s.network_number, router_name: s.p[0], mode: 2 } }),
  '/network/quagga': async ({ settings: s }) => ({ body: { network_number: s.network_number, router_name: s.p[0], enable: 1 } }),
  '/network/quagga_enable': async ({ settings: s }) => ({ body: { network_number: s.network_number } }),
  '/network/quagga_disable': async ({ settings: s }) => ({ body: { network_number: s.network_number } }),
  '/network/kill_user': async ({ settings: s }) => ({ body: { network_number: s.network_number, router_name: s.p[1] } }),
  '/network/reset_respawn': async ({ settings: s }) => ({ body: { network_number: s.network_number, router_name: s.p[1] } }),
  '/network/re_send_config': async ({ settings: s }) => ({ body: { network_number: s.network_number } }),
  // The segment calls, with the values network/segments.test.ts shows succeed on such a network.
  '/network/edit_prefix': async ({ segments: s }) => ({ body: { network_number: s.network_number, prefix: [{ ip: '192.168.10.0', mask: 24, name: s.p[0] }] } }),
  '/network/fixed_port': async ({ segments: s }) => ({
    body: { network_number: s.network_number, router_name: s.c[0], router_service: { public_port: 30000, static_port: 30001 } },
  }),
  '/network/edit_center_gateway': async ({ segments: s }) => ({
    body: { network_number: s.network_number, router_name: s.c[0], router_network: { gateway: '10.30.0.0', mask: 16 }, software_network: { gateway: '10.31.0.0', mask: 16 } },
  }),
  '/network/enable_center_link': async ({ segments: s }) => ({ body: { network_number: s.network_number, enable: 1 } }),
  '/network/edit_center_link_gateway': async ({ segments: s }) => ({ body: { network_number: s.network_number, gateway: '10.32.0.0', mask: 24 } }),
  '/network/center_link': async ({ segments: s }) => ({ body: { network_number: s.network_number, enable: 1, center_router_name: s.c[1], gateway: '10.33.0.0', mask: 24 } }),
  '/network/point_link': async ({ segments: s }) => ({ body: { network_number: s.network_number, link_config: { [s.p[0]!]: [s.c[0]] } } }),
  // POP: the pool first (a resource needs it), then the resource and a member's main area.
  '/network/edit_ip_address_pool': async ({ pop }) => ({ body: { network_number: pop.network_number, pop: '10.9.0.0/16' } }),
  '/network/fr': async ({ pop }) => ({ body: { network_number: pop.network_number, network_fr_id: pop.fr, mode: 1 } }),
  '/network/member_ov': async ({ pop }) => ({ body: { network_number: pop.network_number, router_name: pop.p[0], ov_id_main: pop.areas[0] } }),
  '/network/pop_name': async ({ pop }) => ({ body: { network_number: pop.network_number, network_name: '华东POP网络' } }),
  // Work orders: one is raised and deleted while pending; another is cancelled once the operator started it.
  '/network/ticket': async ({ pop }) => ({
    body: { network_number: pop.network_number, network_ticket_type: 1001, ticket: { pop: ['south', 'east'], expired_time: 1, bandwidth: 1 }, pop_conf: {} },
  }),
  '/network/ticket_delete': async (w) => {
    const row = await w.t.db.selectFrom('network_ticket').select('network_ticket_number').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return { body: { network_ticket_number: row.network_ticket_number } };
  },
  '/network/ticket_cancel': async (w) => {
    const body = { network_number: w.pop.network_number, network_ticket_type: 1001, ticket: { pop: ['north'], expired_time: 1, bandwidth: 1 }, pop_conf: {} };
    const made = await w.t.call(createTicket, { token: w.main.token, body });
    expect([made.code, made.msg]).toEqual([CODE.ok, made.msg]);
    await startTicket(w.t.ctx, made.data!.network_ticket_number);
    return { body: { network_ticket_number: made.data!.network_ticket_number } };
  },
  '/router/add': async () => ({ body: { router_type: 2, username: unique('walk'), password: 'pass1234' } }),
  '/router/note': async (w) => ({ body: { router_name: (w.ids.noted = w.member()), note: '审计备注' } }),
  '/router/password': async (w) => ({ body: { router_name: (w.ids.soft = w.software()), password: 'pass5678' } }),
  '/router/update_status': async (w) => ({ body: { router_name: w.ids.soft } }),
  '/router/reissue': async (w) => {
    // A software member in a network: its certificate there is revoked and a new one issued.
    const router_name = w.software();
    const added = await w.t.call(addNetworkMember, { token: w.main.token, body: { network_number: w.settings.network_number, router_name, member_type: 'point' } });
    expect([added.code, added.msg]).toEqual([CODE.ok, added.msg]);
    await w.t.ctx.events.settle();
    return { body: { router_name } };
  },
  '/router/delete': async (w) => ({ body: { router_name: w.member() } }),
  '/router/batch_delete': async (w) => ({ body: { router_name: [w.software(), w.software()] } }),
  '/router/phone': async (w) => {
    const mobile = freshMobile();
    const code = await memberCode(w.t, w.main.token, `+86 ${mobile}`, 'app_bind_phone');
    return { body: { router_name: w.software(), type: 1, area_code: '86', phone: mobile, code } };
  },
  '/router/batch': async (w) => {
    const file = { filename: '成员.xlsx', body: await workbook(IMPORT_COLUMNS, [[freshName('wb'), 'pass1234', '', '', '']]) };
    return { send: () => upload(w.t, batchAddRouters.path, w.main.token, file) };
  },
  '/router/batch_delete_file': async (w) => {
    const file = { filename: 'delete.xlsx', body: await workbook(DELETE_COLUMNS, [[w.software()]]) };
    return { send: () => upload(w.t, batchDeleteRoutersFile.path, w.main.token, file) };
  },
  '/saas/bandwidth': async (w) => {
    // A shared-edition device as the operator assigns it (modules/saas/fixtures.ts).
    const dev = await saasDevice(w.t, w.main.token, w.main.account.id, { max_bandwidth: 50, bandwidth: 10 });
    return { body: { router_name: dev.name, bandwidth: 30 } };
  },
  // Sign-in sources (the tenant has software_auth_source = 1, as the operator's CLI gives it).
  '/auth_source/create': async () => ({ body: { type: 'feishu', name: unique('飞书'), app_id: 'cli_a1b2c3d4e5', app_secret: 'feishu-secret-0002' } }),
  '/auth_source/edit': async (w) => {
    const src = await w.t.db.selectFrom('auth_source').select('id').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.source = src.id;
    return { body: { id: src.id, type: 'feishu', name: unique('飞书改'), app_id: 'cli_f9e8d7c6b5', app_secret: 'feishu-secret-0003' } };
  },
  '/auth_source/disable': async (w) => ({ body: { id: w.ids.source } }),
  '/auth_source/enable': async (w) => ({ body: { id: w.ids.source } }),
  '/auth_source/delete': async (w) => ({ body: { id: w.ids.source } }),
  // LDAP, in a tenant's order: the CA, a check, the domain proven, the configuration saved; users
  // imported and removed one by one and all at once; a sync that brings a changed description; the
  // sync mode, a restart of the sync, and closing LDAP. The directory is the tenant's own OU of the slapd.
  '/ldap/upload': async ({ t, main, ldap }) => ({ send: () => uploadFile(t, uploadLdapCa, main.token, { filename: 'ca.pem', body: Buffer.from(ldap.s.ca) }) }),
  '/ldap/check': async ({ ldap }) => ({ body: ldap.form() }),
  '/ldap/preview': async ({ ldap }) => ({ body: ldap.form() }),
  '/ldap/verify_domain': async ({ t, main, ldap }) => {
    // The save asks for the verification file; the tenant puts it on its web site (the test's server).
    const asked = await t.call(saveLdap, { token: main.token, body: ldap.form() });
    expect(asked.code).toBe(CODE.furtherAction);
    const file = await t.call(downloadLdapVerifyFile, { token: main.token, query: { domain: ldap.domain } });
    site.set(`/${ldap.domain}/${file.file!.filename}`, file.file!.body.toString());
    return { body: { domain: ldap.domain } };
  },
  '/ldap/save': async ({ ldap }) => ({ body: ldap.form() }),
  '/ldap/import': async ({ t, main, ldap }) => {
    const u = await userNamed(t, main.token, ldap.user);
    return { body: { hash: u.hash, uuid: u.uuid } };
  },
  '/ldap/remove': async ({ t, main, ldap }) => {
    const u = await userNamed(t, main.token, ldap.user);
    return { body: { hash: u.hash, uuid: u.uuid } };
  },
  '/ldap/import_all': async ({ t, main }) => ({ body: { hash: (await listing(t, main.token)).hash } }),
  '/ldap/remove_disable': async ({ t, main }) => ({ body: { hash: (await listing(t, main.token)).hash } }),
  '/ldap/sync': async ({ t, main, ldap }) => {
    const { hash } = await listing(t, main.token);
    await ldap.s.modifyUser(`${ldap.user}b`, { description: '审计部' });
    return { body: { hash } };
  },
  '/ldap/remove_all': async ({ t, main }) => ({ body: { hash: (await listing(t, main.token)).hash } }),
  '/ldap/sync_mode': async () => ({ body: { sync_mode: 2 } }),
  '/ldap/restart_sync': async () => ({}),
  '/ldap/delete': async () => ({}),
  '/ram_role/create': async () => ({ body: { name: unique('角色'), note: '', auth: FULL_ROLE } }),
  '/ram_role/edit': async (w) => {
    const role = await w.t.db.selectFrom('ram_role').select('id').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.role = role.id;
    return { body: { id: role.id, name: unique('改角色'), note: '改', auth: FULL_ROLE } };
  },
  '/ram/create': async (w) => ({ body: { role_id: w.ids.role, nickname: '审计', username: unique('walkram'), password: 'pass1234' } }),
  '/ram/edit': async (w) => {
    const ram = await w.t.db.selectFrom('ram_account').select('id').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.ram = ram.id;
    return { body: { id: ram.id, role_id: w.ids.role, nickname: '审计改' } };
  },
  '/ram/delete': async (w) => ({ body: { id: w.ids.ram } }),
  '/ram_role/delete': async (w) => {
    const now = Date.now();
    const name = unique('删角色');
    const r = await w.t.db
      .insertInto('ram_role')
      .values({ tenant_id: w.main.account.id, name, name_key: name, note: '', auth: JSON.stringify(FULL_ROLE), create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { body: { id: r.id } };
  },
  '/ram/password': async (w) => {
    const ram = await newRamAccount(w.t, w.main.account.id);
    const token = (await signIn(w.t, ram.login, ram.password, { ram: true })).data!.access_token;
    return { token, body: { old_password: ram.password, password: 'newpass123', reset_password: 'newpass123' } };
  },
  '/monitor/enable': async () => ({}),
  '/monitor/setting': async (w) => ({ body: { portal_confirm: 1, email_confirm: 0, webhook_confirm: 0, router_online: 1, router_offline: 1, service_expired: 0, pop_connect: 0, router: [w.member()] } }),
  '/monitor/close': async () => ({}),
  '/contacts/create': async () => ({ body: { name: '值班', email: `${unique('duty')}@example.com` } }),
  '/contacts/edit': async (w) => {
    const c = await w.t.db.selectFrom('monitor_contact').select('uuid').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.contact = c.uuid;
    return { body: { uuid: c.uuid, name: '值班改', email: `${unique('duty')}@example.com` } };
  },
  '/contacts/send_validate_email': async (w) => ({ body: { uuid: w.ids.contact } }),
  '/contacts/delete': async (w) => ({ body: { uuid: w.ids.contact } }),
  '/webhook/setting': async () => ({ body: { type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send?access_token=walk', secret: '' } }),
  '/webhook/test': async (w) => ({ body: { type: 'wecom', url: `${w.hooks.url}/wecom`, secret: '' } }),
  '/webhook/delete': async () => ({}),
  '/webhooks/create': async (w) => ({ body: { name: '值班群', type: 'wecom', url: `${w.hooks.url}/wecom`, secret: '', kinds: ['router_offline'], at_mobiles: ['13800138000'] } }),
  '/webhooks/edit': async (w) => {
    const h = await w.t.db.selectFrom('monitor_hook').select('uuid').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.hook = h.uuid;
    return { body: { uuid: h.uuid, name: '值班群改', type: 'wecom', url: `${w.hooks.url}/wecom`, secret: '', kinds: ['router_offline', 'router_online'] } };
  },
  '/webhooks/test': async (w) => ({ body: { uuid: w.ids.hook } }),
  // A delivery the robot gave up on, resent.
  '/webhooks/resend': async (w) => {
    const now = Date.now();
    const tenant_id = w.main.account.id;
    const alert = await w.t.db
      .insertInto('monitor_alert')
      .values({ tenant_id, dedupe_key: `walk:${now}`, kind: 'router_offline', member_id: null, title: '设备离线', text: '设备 walk 离线。', at: now, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const d = await w.t.db
      .insertInto('monitor_delivery')
      .values({ tenant_id, alert_id: alert.id, channel: 'webhook', target: String(w.ids.hook), contact_id: null, status: 'failed', attempts: 3, last_error: '企业微信返回错误', next_at: now, create_time: now, update_time: now, done_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { body: { id: d.id } };
  },
  '/webhooks/delete': async (w) => ({ body: { uuid: w.ids.hook } }),
  '/message/update_message': async (w) => {
    const now = Date.now();
    const m = await w.t.db
      .insertInto('message')
      .values({ tenant_id: w.main.account.id, title: 'walk', content: 'walk', type: 'system', status: 0, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    w.ids.message = m.id;
    return { body: { message_id: [m.id] } };
  },
  '/message/delete_message': async (w) => ({ body: { message_id: [w.ids.message] } }),
  '/ticket/create': async () => ({ body: { title: '审计工单', content: '分支机构的路由器从昨天开始无法连接到总部网络。', type: 2 } }),
  '/ticket/reply': async (w) => {
    const tk = await w.t.db.selectFrom('support_ticket').select('ticket_number').where('tenant_id', '=', w.main.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    w.ids.ticket = tk.ticket_number;
    return { body: { ticket_number: tk.ticket_number, content: '补充说明' } };
  },
  '/ticket/delete': async (w) => ({ body: { ticket_number: w.ids.ticket } }),
  '/ticket/appraise': async (w) => ({ body: { ticket_number: await answered(w.t, w.main.token), grade: 5, content: '处理及时' } }),
  '/ticket/upload_file': async (w) => ({ send: () => uploadImage(w.t, w.main.token, 'shot.png', PNG) }),
  '/verify/send_code': async (w) => ({ body: { send_type: w.main.type, send_value: w.main.verify, verify_type: `verify_${w.main.type}` } }),
  '/verify/verify': async (w) => ({ body: { send_type: w.main.type, verify_type: `verify_${w.main.type}`, code: await w.t.lastCode(w.main.verify) } }),
  // The contact calls, in the order a tenant would make them: bind an email, change it (the phone
  // proves the owner), change the phone (the email proves), then unbind the phone (proven again).
  '/account/default_email': async (w) => {
    const email = (w.ids.email = freshEmail());
    return { body: { type: 1, email, code: await codeFor(w.t, w.main.token, 'email', email, 'bind_email') } };
  },
  '/account/edit_email': async (w) => {
    await prove(w.t, w.main.token, 'phone', w.main.verify);
    const email = (w.ids.email = freshEmail());
    return { body: { email, code: await codeFor(w.t, w.main.token, 'email', email, 'edit_email') } };
  },
  '/account/edit_phone': async (w) => {
    await prove(w.t, w.main.token, 'email', String(w.ids.email));
    const mobile = freshMobile();
    const code = await codeFor(w.t, w.main.token, 'phone', `+86 ${mobile}`, 'edit_phone');
    return { body: { area_code: '86', phone: mobile, code }, after: async () => void (w.main.verify = `+86 ${mobile}`) };
  },
  '/account/default_phone': async (w) => {
    await prove(w.t, w.main.token, 'phone', w.main.verify);
    return { body: { type: 1, area_code: '', phone: '', code: '' } };
  },
  '/account/edit_password': async (w) => {
    // The calls above used their proofs up; the email (the phone is unbound now) proves the owner.
    await prove(w.t, w.main.token, 'email', String(w.ids.email));
    return {
      body: { new_password: 'walkpass123', reset_password: 'walkpass123' },
      after: async () => {
        w.main.password = 'walkpass123';
        w.main.token = (await signIn(w.t, w.main.username, w.main.password)).data!.access_token;
      },
    };
  },
  '/api_token/create': async () => ({ body: { name: unique('令牌'), scope: 'read', expires_days: 30 } }),
  '/api_token/revoke': async (w) => {
    const made = await w.t.call(createApiToken, { token: w.main.token, body: { name: unique('删令牌'), scope: 'read', expires_days: 30 } });
    return { body: { id: made.data!.id } };
  },
  '/network/history/rollback': async (w) => {
    // A rename makes a version; rolling back to the one before it gives the old name back.
    const { network_number } = w.settings;
    const renamed = await w.t.call(renameNetwork, { token: w.main.token, body: { network_number, network_name: unique('回滚前') } });
    expect(renamed.code).toBe(CODE.ok);
    const versions = await w.t.db
      .selectFrom('network_version')
      .innerJoin('network', 'network.id', 'network_version.network_id')
      .select('network_version.version')
      .where('network.network_number', '=', network_number)
      .orderBy('network_version.version')
      .execute();
    return { body: { network_number, version: versions.at(-2)!.version } };
  },
  '/network/apply': async (w) => {
    // The network's own document with another DNS list: one change, made through the DNS service.
    const { network_number } = w.settings;
    const exported = await w.t.call(exportNetwork, { token: w.main.token, query: { network_number, format: 'json' } });
    expect(exported.code).toBe(CODE.ok);
    const doc = JSON.parse(exported.data!.document) as { dns: string[] };
    return { body: { network_number, document: JSON.stringify({ ...doc, dns: ['192.0.2.153'] }) } };
  },
  '/network/delete': async (w) => ({ body: { network_number: w.network.network_number } }),
  '/login/logout': async (w) => ({ token: (await signIn(w.t, w.main.username, w.main.password)).data!.access_token }),
};

let slapd: Slapd;
/** The tenants' web site for /ldap/verify_domain: /{domain}/{file} → content. */
const site = new Map<string, string>();
let web: http.Server;
const options: TestAppOptions = { config: {} };

beforeAll(async () => {
  slapd = await startSlapd({ tls: true });
  web = http.createServer((req, res) => {
    const body = site.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  options.config!.ldapVerifyUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/{domain}/{file}`;
});
afterAll(async () => {
  await slapd?.stop();
  await new Promise((resolve) => web?.close(resolve));
});

describeEachDatabase('audit walk: every mutating route leaves an entry with its diff', (t) => {
  let endpoints: Endpoint[];
  let walk: Walk;
  let hooks: WebhookReceiver;

  afterAll(async () => {
    await hooks?.close();
  });

  beforeAll(async () => {
    hooks = await startWebhookReceiver('walk-secret');
    endpoints = t()
      .app.endpoints.map((e) => e.endpoint)
      // A member's self-service calls (issue 30) act for no account and change no row, a preview changes nothing: nothing to audit.
      .filter((e) => e.method === 'POST' && e.access !== 'public' && e.access !== 'member' && !e.changesNothing);
    const main = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: 200, auth_quagga: 1, auth_quagga_advanced: 1, auth_default_route: 1 }).where('id', '=', main.account.id).execute();
    await grantFeature(t(), main.account.id);
    const pool = await seedFreshMembers(t(), main.account.id, 40);
    const soft = await seedFreshMembers(t(), main.account.id, 8, { router_type: ROUTER_TYPE.software });
    const network = await seedNetwork(t(), main.account.id, { center: [pool.pop()!], point: [pool.pop()!], name: '审计网络' });
    const c = await seedFreshMembers(t(), main.account.id, 2);
    const p = [...(await seedFreshMembers(t(), main.account.id, 1)), ...(await seedFreshMembers(t(), main.account.id, 1, { online_status: 1 }))];
    const settings = { ...(await seedNetwork(t(), main.account.id, { center: c, point: p })), c, p };
    const [sc, sp] = [await seedFreshMembers(t(), main.account.id, 2), await seedFreshMembers(t(), main.account.id, 2)];
    const segments = { ...(await seedNetwork(t(), main.account.id, { center: sc, point: sp })), c: sc, p: sp };
    const [pc, pp, lone] = [await seedFreshMembers(t(), main.account.id, 1), await seedFreshMembers(t(), main.account.id, 2), await seedFreshMembers(t(), main.account.id, 1)];
    const popNet = await seedNetwork(t(), main.account.id, { center: pc, point: pp });
    // The resource comes from an order completed for another network, as network/pop.test.ts makes it.
    const side = await seedNetwork(t(), main.account.id, { center: lone });
    const fr = await frOfTicket(t(), await completeOrder(t(), main.account.id, side.network_number, { pop: ['south', 'north', 'east'] }));
    const areas = await t().db.selectFrom('network_fr_area').select('id').where('network_fr_id', '=', fr.id).orderBy('id').execute();
    const pop = { ...popNet, c: pc, p: pp, fr: fr.id, areas: areas.map((a) => a.id) };
    const user = `wk${t().dialect.slice(0, 1)}${Date.now() % 100_000}`;
    const base = await directoryOf(slapd, [{ uid: user, description: '研发部' }, { uid: `${user}b` }, { uid: `${user}c`, disabled: true }]);
    const domain = `${user}.example.com`;
    const ldap = { s: slapd, base, domain, user, form: () => configOf(slapd, { domain, base_dn: base }) };
    walk = {
      t: t(),
      ldap,
      settings,
      segments,
      pop,
      main,
      network,
      ids: {},
      hooks,
      software: () => {
        const m = soft.pop();
        if (!m) throw new Error('the walk ran out of software members');
        return m;
      },
      member: () => {
        const m = pool.pop();
        if (!m) throw new Error('the walk ran out of members');
        return m;
      },
    };
  });

  it('has a recipe for every mutating route', () => {
    const paths = endpoints.map((e) => e.path);
    const uncovered = paths.filter((p) => !(p in RECIPES));
    expect(uncovered, 'mutating routes without a recipe').toEqual([]);
    // No stale recipe: each names a registered route.
    expect(Object.keys(RECIPES).filter((p) => !paths.includes(p))).toEqual([]);
    expect(Object.keys(NO_FIELD_CHANGE).filter((p) => !(p in RECIPES))).toEqual([]);
  });

  it('knows the key of every audited table (an UPDATE is read again by it; a table without one would leave no diff)', async () => {
    const tables = await tablesOf(t());
    expect(tables.map((tb) => tb.name)).toEqual(expect.arrayContaining(['account', 'member', 'network']));
    const keyless = tables
      .filter((tb) => isAudited(tb.name))
      .filter((tb) => !tb.columns.includes(keyColumnOf(tb.name)))
      .map((tb) => tb.name);
    expect(keyless).toEqual([]);
  });

  for (const [path, recipe] of Object.entries(RECIPES)) {
    it(`${path} succeeds and leaves an entry${path in NO_FIELD_CHANGE ? '' : ' with changed fields'}`, async () => {
      const endpoint = endpoints.find((e) => e.path === path);
      expect(endpoint, `${path} is registered`).toBeDefined();
      const { body, token, after, send } = await recipe(walk);
      await t().ctx.events.settle();
      const [last] = (await t().call(auditList, { token: walk.main.token, query: { limit: 1 } })).data ?? [];
      const res = send ? await send() : await t().call(endpoint!, { token: token ?? walk.main.token, body: body ?? {} });
      expect([res.code, res.msg], `${path} answered`).toEqual([CODE.ok, res.msg]);
      await after?.();
      await t().ctx.events.settle();
      const listed = await t().call(auditList, { token: walk.main.token, query: { area: path.split('/')[1]!, limit: LIMITS.maxPageLimit } });
      const entry = listed.data!.find((e) => e.path === path && (!last || e.id > last.id));
      expect(entry, `${path} left no audit entry`).toBeDefined();
      if (path in NO_FIELD_CHANGE) return;
      expect(
        entry!.changes.some((c) => c.fields.length > 0),
        `${path} left an entry without changed fields`,
      ).toBe(true);
    });
  }
}, options);
