import { isIP } from 'node:net';
import { FR_STATUS, M, POP_REGION_VALUES, requiredString } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import { addArea, addRelay, createResource, listAllResources, listRelays, removeArea, removeRelay, renewResource, type OperatorArea } from '../../modules/pop';
import { defineCommand, epochOf, flagArg, intArg, LIMIT_OPTION, limitArg, OpsError, shownTime, tenantArg, timeArg } from '../command';
import { findTenant, TENANT_FILTER, tenantFilterId } from './tenant';

const DAY_MS = 86_400_000;
const NAME_MAX = 64;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** One area on one line: id, region/name/bandwidth, and where its POP answers when set. */
const areaText = (a: OperatorArea) => `${a.id}:${a.region}/${a.name}/${a.bandwidth}M${a.host ? `@${a.host}:${a.port}` : ''}`;

/** An expiry the command was given, refused unless it is still to come. */
function futureExpiry(ctx: Ctx, v: string): number {
  const ms = epochOf(ctx, v);
  if (ms <= Date.now()) throw new OpsError('the expiry must be in the future');
  return ms;
}

const idArg = (what: string) => intArg(what, 1);

const list = defineCommand({
  group: 'pops',
  name: 'list',
  summary: 'POP resources with their areas (id:region/name/bandwidth), newest first',
  options: {
    ...TENANT_FILTER,
    ...LIMIT_OPTION,
  },
  input: z.object({ tenant: tenantArg.optional(), limit: limitArg() }),
  async run(ctx, input) {
    const tenantId = await tenantFilterId(ctx, input.tenant);
    const rows = await listAllResources(ctx, { tenantId, limit: input.limit });
    const now = Date.now();
    return {
      table: rows.map((r) => ({
        id: r.id,
        tenant: r.tenant,
        name: r.name,
        status: r.status === FR_STATUS.valid ? 'valid' : 'processing',
        expires: shownTime(ctx, r.expire_time),
        days_left: Math.max(0, Math.floor((r.expire_time - now) / DAY_MS)),
        areas: r.areas.map(areaText).join(', '),
        networks: r.networks.join(', '),
        source: r.ticket_id === null ? 'operator' : 'order',
      })),
    };
  },
});

const create = defineCommand({
  group: 'pops',
  name: 'create',
  summary: 'make a POP resource for a tenant without an order (add its areas with area-add)',
  positionals: ['tenant'],
  options: {
    name: { help: 'the name the console shows' },
    expire: { help: 'valid until (a time: YYYY-MM-DD, ISO 8601 with offset, now or +N d/m/y)' },
    status: { help: '1 valid (default), 0 processing' },
  },
  input: z.object({
    tenant: tenantArg,
    name: requiredString('--name is required').max(NAME_MAX, `the name has at most ${NAME_MAX} characters`),
    expire: timeArg('expire'),
    status: flagArg('status').default(1),
  }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const expireTime = futureExpiry(ctx, input.expire);
    const id = await createResource(ctx, { tenantId: tenant.id, name: input.name, status: input.status === 1 ? FR_STATUS.valid : FR_STATUS.processing, expireTime });
    return { done: `POP resource ${id} made for tenant ${tenant.username}`, data: { id } };
  },
});

const areaAdd = defineCommand({
  group: 'pops',
  name: 'area-add',
  summary: 'add an area (one a region) to a POP resource',
  positionals: ['pop-id'],
  options: {
    region: { help: `one of ${POP_REGION_VALUES.join(', ')}` },
    bandwidth: { help: 'Mbps, 1 to 100000' },
    name: { help: "shown name (default: the region's name)" },
    host: { help: "where the area's POP answers: a DNS name or an IP address" },
    port: { help: 'its port (default 1194; only with --host)' },
  },
  input: z
    .object({
      'pop-id': idArg('pop-id'),
      region: z.enum(POP_REGION_VALUES, { error: `${M.ticketPopInvalid} (${POP_REGION_VALUES.join(', ')})` }),
      bandwidth: intArg('bandwidth', 1, 100_000),
      name: requiredString('the name may not be blank').max(NAME_MAX, `the name has at most ${NAME_MAX} characters`).optional(),
      host: z
        .string()
        .trim()
        .refine((v) => isIP(v) !== 0 || HOSTNAME.test(v), 'the host is a DNS name or an IP address')
        .optional(),
      port: intArg('port', 1, 65_535).optional(),
    })
    .refine((v) => v.port === undefined || v.host !== undefined, { path: ['port'], message: 'give --port together with --host' }),
  async run(ctx, input) {
    const id = await addArea(ctx, input['pop-id'], { region: input.region, name: input.name, bandwidth: input.bandwidth, host: input.host, port: input.port });
    return { done: `area ${id} (${input.region}, ${input.bandwidth}M) added to POP resource ${input['pop-id']}`, data: { id } };
  },
});

const areaRemove = defineCommand({
  group: 'pops',
  name: 'area-remove',
  summary: 'delete an area of a POP resource that no network member dials',
  positionals: ['area-id'],
  input: z.object({ 'area-id': idArg('area-id') }),
  async run(ctx, input) {
    const { network_fr_id } = await removeArea(ctx, input['area-id']);
    return { done: `area ${input['area-id']} removed from POP resource ${network_fr_id}` };
  },
});

const renew = defineCommand({
  group: 'pops',
  name: 'renew',
  summary: "set a POP resource's expiry",
  positionals: ['pop-id'],
  options: { expire: { help: 'valid until (a time: YYYY-MM-DD, ISO 8601 with offset, now or +N d/m/y)' } },
  input: z.object({ 'pop-id': idArg('pop-id'), expire: timeArg('expire') }),
  async run(ctx, input) {
    const expireTime = futureExpiry(ctx, input.expire);
    await renewResource(ctx, input['pop-id'], expireTime);
    return { done: `POP resource ${input['pop-id']} valid until ${shownTime(ctx, expireTime)}` };
  },
});

const relayAdd = defineCommand({
  group: 'pops',
  name: 'relay-add',
  summary: "register a POP relay for an area; prints its token once (run it: hublink relay --server URL --token TOKEN)",
  positionals: ['area-id'],
  options: { name: { help: 'what the relay is called (default: relay-<area-id>)' } },
  input: z.object({
    'area-id': idArg('area-id'),
    name: requiredString('the name may not be blank').max(NAME_MAX, `the name has at most ${NAME_MAX} characters`).optional(),
  }),
  async run(ctx, input) {
    const { id, token } = await addRelay(ctx, input['area-id'], input.name ?? `relay-${input['area-id']}`);
    return { done: `relay ${id} registered for area ${input['area-id']}; its token (shown only now): ${token}`, data: { id, token } };
  },
});

const relayList = defineCommand({
  group: 'pops',
  name: 'relay-list',
  summary: 'POP relays with their area, liveness, last report (flows, bytes) and ports',
  options: { area: { help: 'only the relays of this area id' } },
  input: z.object({ area: idArg('area').optional() }),
  async run(ctx, input) {
    const rows = await listRelays(ctx, { areaId: input.area });
    return {
      table: rows.map((r) => ({
        id: r.id,
        tenant: r.tenant,
        area: `${r.area_id}:${r.area}`,
        name: r.name,
        state: r.live ? 'live' : r.seen_time === null ? 'never seen' : 'dead',
        seen: shownTime(ctx, r.seen_time),
        address: r.address,
        flows: r.sessions,
        bytes_in: r.bytes_in,
        bytes_out: r.bytes_out,
        ports: r.ports,
      })),
    };
  },
});

const relayRemove = defineCommand({
  group: 'pops',
  name: 'relay-remove',
  summary: 'remove a POP relay: its token stops working',
  positionals: ['relay-id'],
  input: z.object({ 'relay-id': idArg('relay-id') }),
  async run(ctx, input) {
    const { area_id } = await removeRelay(ctx, input['relay-id']);
    return { done: `relay ${input['relay-id']} of area ${area_id} removed` };
  },
});

export const popCommands = [list, create, areaAdd, areaRemove, renew, relayAdd, relayList, relayRemove];
