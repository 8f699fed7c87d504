import { isIP } from 'node:net';
import { plainText, requiredString, SAAS_SHARED } from '@hublink/contract';
import { z } from 'zod';
import { assignAsOperator, listAllSaasDevices, SaasAssignError, unassignSaasDevice } from '../../modules/saas';
import { defineCommand, epochOf, flagArg, intArg, LIMIT_OPTION, limitArg, OpsError, shownTime, tenantArg, timeArg } from '../command';
import { findTenant, TENANT_FILTER, tenantFilterId } from './tenant';

const BANDWIDTH_MAX = 1_000_000;
const routerArg = requiredString('a router name is required').max(64, 'a router name has at most 64 characters');

/** The module's refusals are the operator's to act on. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof SaasAssignError) throw new OpsError(e.message);
    throw e;
  }
}

const list = defineCommand({
  group: 'saas',
  name: 'list',
  summary: 'SaaS devices by tenant, category and name',
  options: {
    ...TENANT_FILTER,
    ...LIMIT_OPTION,
  },
  input: z.object({ tenant: tenantArg.optional(), limit: limitArg() }),
  async run(ctx, input) {
    const tenantId = await tenantFilterId(ctx, input.tenant);
    const rows = await listAllSaasDevices(ctx, { tenantId, limit: input.limit });
    return {
      table: rows.map((r) => ({
        router_name: r.router_name,
        tenant: r.tenant,
        category: r.category,
        share: r.share === SAAS_SHARED ? 'shared' : 'standard',
        bandwidth: `${r.bandwidth}/${r.max_bandwidth}`,
        expires: shownTime(ctx, r.expire_time),
        temporary: r.temp_start_time === null && r.temp_expire_time === null ? '' : `${r.temp_bandwidth}M ${shownTime(ctx, r.temp_start_time)} – ${shownTime(ctx, r.temp_expire_time)}`,
      })),
    };
  },
});

const TEMP = ['temp_bandwidth', 'temp_start', 'temp_expire'] as const;

const assign = defineCommand({
  group: 'saas',
  name: 'assign',
  summary: "make a tenant's hardware member a SaaS device, or set all of its SaaS attributes again",
  positionals: ['tenant', 'router-name'],
  options: {
    category: { help: "the console's group ('' for none)" },
    bandwidth: { help: 'Mbs, 0 (disabled) up to --max' },
    max: { help: 'the most Mbs a shared device may be set to' },
    share: { help: '1 shared edition (the tenant may change the bandwidth), 0 standard (default)' },
    expire: { help: 'valid until (a time: YYYY-MM-DD, ISO 8601 with offset, now or +N d/m/y); default none' },
    temp_bandwidth: { help: 'temporary bandwidth in Mbs (with --temp-start and --temp-expire)' },
    temp_start: { help: 'when the temporary bandwidth starts' },
    temp_expire: { help: 'when it ends' },
    ip: { multiple: true, help: 'a public address of the device (repeat for more)' },
  },
  input: z
    .object({
      tenant: tenantArg,
      'router-name': routerArg,
      category: plainText('--category is required').max(64, 'the category has at most 64 characters'),
      bandwidth: intArg('bandwidth', 0, BANDWIDTH_MAX),
      max: intArg('max', 0, BANDWIDTH_MAX),
      share: flagArg('share').default(0),
      expire: timeArg('expire').optional(),
      temp_bandwidth: intArg('temp-bandwidth', 1, BANDWIDTH_MAX).optional(),
      temp_start: timeArg('temp-start').optional(),
      temp_expire: timeArg('temp-expire').optional(),
      ip: z.array(z.string().trim().refine((v) => isIP(v) !== 0, 'each --ip is an IP address')).max(64, 'at most 64 addresses').optional(),
    })
    .refine((v) => TEMP.every((k) => v[k] === undefined) || TEMP.every((k) => v[k] !== undefined), {
      path: ['temp_bandwidth'],
      message: 'give --temp-bandwidth, --temp-start and --temp-expire together, or none of them',
    }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const start = input.temp_start === undefined ? null : epochOf(ctx, input.temp_start);
    const end = input.temp_expire === undefined ? null : epochOf(ctx, input.temp_expire);
    if (start !== null && end !== null && start >= end) throw new OpsError('the temporary bandwidth must start before it ends');
    await refusing(() =>
      assignAsOperator(ctx, {
        tenantId: tenant.id,
        routerName: input['router-name'],
        category: input.category,
        share: input.share,
        bandwidth: input.bandwidth,
        max_bandwidth: input.max,
        expire_date: input.expire === undefined ? null : epochOf(ctx, input.expire),
        temp_bandwidth: input.temp_bandwidth ?? 0,
        temp_start_date: start,
        temp_expire_date: end,
        ip: [...new Set(input.ip ?? [])],
      }),
    );
    return { done: `${input['router-name']} of tenant ${tenant.username} is a SaaS device (${input.bandwidth}/${input.max} Mbs)` };
  },
});

const unassign = defineCommand({
  group: 'saas',
  name: 'unassign',
  summary: 'a SaaS device becomes an ordinary member again (its reported history stays)',
  positionals: ['tenant', 'router-name'],
  input: z.object({ tenant: tenantArg, 'router-name': routerArg }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    await refusing(() => unassignSaasDevice(ctx, tenant.id, input['router-name']));
    return { done: `${input['router-name']} of tenant ${tenant.username} is no longer a SaaS device` };
  },
});

export const saasCommands = [list, assign, unassign];
