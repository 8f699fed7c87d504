import { emailValueField, nicknameField, passwordField, phoneValue, phoneValueField, usernameField } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import { contains } from '../../core/paging';
import { revokeSessions } from '../../core/sessions';
import { createAccountAsOperator } from '../../modules/auth';
import { defineCommand, flagArg, intArg, LIMIT_OPTION, limitArg, OpsError, shownTime, tenantArg } from '../command';
import { findTenant } from './tenant';

const PLAN_FIELDS = ['network_level', 'network_router_count', 'network_center_count', 'dns_quantity', 'ram_quantity'] as const;

async function tenantRecord(ctx: Ctx, id: number) {
  const a = await ctx.db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const members = await ctx.db.selectFrom('member_count').select(['router_type', 'n']).where('tenant_id', '=', id).execute();
  const services = await ctx.db.selectFrom('service').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', id).executeTakeFirstOrThrow();
  return {
    id: a.id,
    username: a.username,
    nickname: a.nickname,
    phone: a.phone ?? '',
    email: a.email ?? '',
    sign: a.sign,
    status: a.status === 1 ? 'enabled' : 'disabled',
    network_level: a.network_level,
    network_router_count: a.network_router_count,
    network_router_use: a.network_router_use,
    network_center_count: a.network_center_count,
    dns_quantity: a.dns_quantity,
    ram_quantity: a.ram_quantity,
    software_auth_source: a.software_auth_source,
    quagga: a.auth_quagga,
    quagga_advanced: a.auth_quagga_advanced,
    default_route: a.auth_default_route,
    members: members.reduce((n, m) => n + Number(m.n), 0),
    services: Number(services.n),
    create_time: shownTime(ctx, a.create_time),
  };
}

const list = defineCommand({
  group: 'tenants',
  name: 'list',
  summary: 'list tenants (main accounts), newest first',
  options: {
    search: { help: 'part of the username, nickname, phone or email' },
    ...LIMIT_OPTION,
  },
  input: z.object({ search: z.string().trim().max(64, 'search has at most 64 characters').optional(), limit: limitArg() }),
  async run(ctx, input) {
    let q = ctx.db.selectFrom('account').select(['id', 'username', 'nickname', 'phone', 'email', 'status', 'network_level', 'network_router_use', 'network_router_count', 'create_time']);
    if (input.search) {
      const text = input.search;
      q = q.where((eb) => eb.or([eb.ref('username'), eb.ref('nickname'), eb.ref('phone'), eb.ref('email')].map((c) => contains(ctx.dialect, c, text))));
    }
    const rows = await q.orderBy('id', 'desc').limit(input.limit).execute();
    return {
      table: rows.map((r) => ({
        id: r.id,
        username: r.username,
        nickname: r.nickname,
        phone: r.phone ?? '',
        email: r.email ?? '',
        status: r.status === 1 ? 'enabled' : 'disabled',
        level: r.network_level,
        routers: `${r.network_router_use}/${r.network_router_count}`,
        created: shownTime(ctx, r.create_time),
      })),
    };
  },
});

const show = defineCommand({
  group: 'tenants',
  name: 'show',
  summary: "a tenant's account, plan, flags and use",
  positionals: ['tenant'],
  input: z.object({ tenant: tenantArg }),
  async run(ctx, input) {
    return { record: await tenantRecord(ctx, (await findTenant(ctx, input.tenant)).id) };
  },
});

const create = defineCommand({
  group: 'tenants',
  name: 'create',
  summary: 'make a main account (the rules of registration; no code is sent) with the default plan',
  options: {
    username: { help: 'sign-in name' },
    nickname: { help: 'display name' },
    password: { help: 'initial password (the tenant changes it in the console)' },
    phone: { help: "bind a mobile number (mainland's +86 unless given: '+852 91234567')" },
    email: { help: 'bind an email address' },
  },
  input: z
    .object({ username: usernameField, nickname: nicknameField, password: passwordField(), phone: z.string().trim().transform((v) => (v.startsWith('+') ? v : phoneValue('86', v))).pipe(phoneValueField).optional(), email: emailValueField.optional() })
    .refine((v) => !(v.phone && v.email), { path: ['email'], message: 'give a phone or an email, not both' }),
  async run(ctx, input) {
    const destination = input.phone ? { type: 'phone' as const, value: input.phone } : input.email ? { type: 'email' as const, value: input.email } : undefined;
    const id = await createAccountAsOperator(ctx, { username: input.username, nickname: input.nickname, password: input.password, destination });
    return { done: `tenant ${input.username} created with id ${id}`, data: { id } };
  },
});

const planOptions = {
  network_level: { help: 'network edition: 1 basic, 2 or more standard' },
  network_router_count: { help: 'members that may be in networks' },
  network_center_count: { help: 'centers a network may have' },
  dns_quantity: { help: 'DNS servers a network may have' },
  ram_quantity: { help: 'sub-accounts' },
};

const plan = defineCommand({
  group: 'tenants',
  name: 'plan',
  summary: "change a tenant's plan (only the values given)",
  positionals: ['tenant'],
  options: planOptions,
  input: z
    .object({
      tenant: tenantArg,
      network_level: intArg('network-level', 1, 9).optional(),
      network_router_count: intArg('network-router-count', 0, 1_000_000).optional(),
      network_center_count: intArg('network-center-count', 1, 64).optional(),
      dns_quantity: intArg('dns-quantity', 0, 16).optional(),
      ram_quantity: intArg('ram-quantity', 0, 10_000).optional(),
    })
    .refine((v) => PLAN_FIELDS.some((f) => v[f] !== undefined), { message: 'give at least one of the plan options' }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const change = Object.fromEntries(PLAN_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]!]));
    if (change.network_router_count !== undefined && change.network_router_count < tenant.network_router_use) {
      throw new OpsError(`tenant ${tenant.username} has ${tenant.network_router_use} members in networks: network-router-count cannot be lower`);
    }
    await ctx.db.updateTable('account').set({ ...change, update_time: Date.now() }).where('id', '=', tenant.id).execute();
    return { record: await tenantRecord(ctx, tenant.id) };
  },
});

function statusCommand(name: 'enable' | 'disable') {
  return defineCommand({
    group: 'tenants',
    name,
    summary: name === 'disable' ? 'stop a tenant and its sub-accounts signing in (ends their sessions)' : 'let a disabled tenant sign in again',
    positionals: ['tenant'],
    input: z.object({ tenant: tenantArg }),
    async run(ctx, input) {
      const tenant = await findTenant(ctx, input.tenant);
      await ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('account').set({ status: name === 'enable' ? 1 : 0, update_time: Date.now() }).where('id', '=', tenant.id).execute();
        // The main account's sessions and every sub-account's.
        if (name === 'disable') {
          await revokeSessions(trx, { tenantId: tenant.id, ramId: 'every' });
        }
      });
      return { done: `tenant ${tenant.username} ${name}d` };
    },
  });
}

const config = defineCommand({
  group: 'tenants',
  name: 'config',
  summary: "set a tenant's console switches (config of /user/message)",
  positionals: ['tenant'],
  options: { software_auth_source: { help: '1 shows third-party sign-in sources, 0 hides them' } },
  input: z.object({ tenant: tenantArg, software_auth_source: flagArg('software-auth-source') }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    await ctx.db.updateTable('account').set({ software_auth_source: input.software_auth_source, update_time: Date.now() }).where('id', '=', tenant.id).execute();
    return { record: await tenantRecord(ctx, tenant.id) };
  },
});

const AUTH_FLAGS = { quagga: 'auth_quagga', quagga_advanced: 'auth_quagga_advanced', default_route: 'auth_default_route' } as const;

const auth = defineCommand({
  group: 'tenants',
  name: 'auth',
  summary: "set a tenant's network feature flags (auth of /user/message)",
  positionals: ['tenant'],
  options: {
    quagga: { help: '1 allows dynamic routing (quagga) on members' },
    quagga_advanced: { help: '1 allows its advanced settings' },
    default_route: { help: '1 allows members to take the default route' },
  },
  input: z
    .object({ tenant: tenantArg, quagga: flagArg('quagga').optional(), quagga_advanced: flagArg('quagga-advanced').optional(), default_route: flagArg('default-route').optional() })
    .refine((v) => v.quagga !== undefined || v.quagga_advanced !== undefined || v.default_route !== undefined, { message: 'give at least one of --quagga, --quagga-advanced, --default-route' }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const change = Object.fromEntries((Object.keys(AUTH_FLAGS) as (keyof typeof AUTH_FLAGS)[]).filter((k) => input[k] !== undefined).map((k) => [AUTH_FLAGS[k], input[k]!]));
    await ctx.db.updateTable('account').set({ ...change, update_time: Date.now() }).where('id', '=', tenant.id).execute();
    return { record: await tenantRecord(ctx, tenant.id) };
  },
});

export const tenantCommands = [list, show, create, plan, statusCommand('disable'), statusCommand('enable'), config, auth];
