import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuery, requiredString } from './fields';
import { LIMITS } from './limits';
import { fmt, serviceMessages } from './messages';

/** One service of the tenant (spec 1 §3); times as 'yyyy-MM-dd HH:mm:ss'. */
export const serviceItem = z.object({
  id: z.number(),
  service_name: z.string(),
  quantity: z.number(),
  start_time: z.string(),
  expired_time: z.string(),
});
export type ServiceItem = z.infer<typeof serviceItem>;

/**
 * GET /account/service: the tenant's services, newest first, 10 a page. Sub-accounts read them too:
 * the spec's menu shows them "my services" (docs/decisions.md).
 */
export const listServices = defineEndpoint({
  path: '/account/service',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(serviceItem),
  paged: true,
});

const epochMs = z.number({ error: serviceMessages.serviceTimeInvalid }).int(serviceMessages.serviceTimeInvalid).nonnegative(serviceMessages.serviceTimeInvalid);

/** What the operator grants a tenant (`hublink ops`); times are epoch milliseconds. */
export const grantServiceInput = z
  .object({
    service_name: requiredString(serviceMessages.serviceNameRequired).max(LIMITS.serviceNameMax, fmt(serviceMessages.serviceNameTooLong, { n: LIMITS.serviceNameMax })),
    quantity: z.number({ error: serviceMessages.serviceQuantityInvalid }).int(serviceMessages.serviceQuantityInvalid).positive(serviceMessages.serviceQuantityInvalid).max(LIMITS.maxId, serviceMessages.serviceQuantityInvalid),
    start_time: epochMs,
    expired_time: epochMs,
  })
  .refine((v) => v.expired_time > v.start_time, { path: ['expired_time'], message: serviceMessages.serviceExpiryBeforeStart });
export type GrantServiceInput = z.input<typeof grantServiceInput>;
