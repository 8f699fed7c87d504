import { grantServiceInput, LIMITS, M } from '@hublink/contract';
import { z } from 'zod';
import { grantService, revokeService, tenantServices } from '../../modules/service';
import { defineCommand, epochOf, intArg, LIMIT_OPTION, limitArg, OpsError, tenantArg, timeArg } from '../command';
import { findTenant } from './tenant';

const list = defineCommand({
  group: 'services',
  name: 'list',
  summary: "a tenant's services as its console shows them (/account/service), newest first",
  positionals: ['tenant'],
  options: LIMIT_OPTION,
  input: z.object({ tenant: tenantArg, limit: limitArg() }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    return { table: await tenantServices(ctx, tenant.id, input.limit) };
  },
});

/** The quantity as typed, with the console's message (the contract bounds it by the 32-bit column). */
const quantityArg = z
  .string({ error: M.serviceQuantityInvalid })
  .regex(/^\d+$/, M.serviceQuantityInvalid)
  .transform(Number)
  .pipe(grantServiceInput.shape.quantity);

const grant = defineCommand({
  group: 'services',
  name: 'grant',
  summary: 'grant a tenant a service (shown under its services)',
  positionals: ['tenant'],
  options: {
    name: { help: `the service's name (at most ${LIMITS.serviceNameMax} characters)` },
    quantity: { help: 'how many (a positive whole number)' },
    start: { help: 'when it starts (a time: YYYY-MM-DD, ISO 8601 with offset, now or +N d/m/y)' },
    expire: { help: 'when it expires (after the start), the same way' },
  },
  input: z.object({
    tenant: tenantArg,
    name: grantServiceInput.shape.service_name,
    quantity: quantityArg,
    start: timeArg('start'),
    expire: timeArg('expire'),
  }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    const id = await grantService(ctx, tenant.id, {
      service_name: input.name,
      quantity: input.quantity,
      start_time: epochOf(ctx, input.start),
      expired_time: epochOf(ctx, input.expire),
    });
    return { done: `service ${id} granted to ${tenant.username}`, data: { id } };
  },
});

const revoke = defineCommand({
  group: 'services',
  name: 'revoke',
  summary: 'take a service away from a tenant (it leaves its services)',
  positionals: ['tenant', 'id'],
  input: z.object({ tenant: tenantArg, id: intArg('the service id', 1, LIMITS.maxId) }),
  async run(ctx, input) {
    const tenant = await findTenant(ctx, input.tenant);
    if (!(await revokeService(ctx, tenant.id, input.id))) throw new OpsError(`tenant ${tenant.username} has no service ${input.id}`);
    return { done: `service ${input.id} of ${tenant.username} revoked` };
  },
});

export const serviceCommands = [list, grant, revoke];
