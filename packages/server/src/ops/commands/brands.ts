import { z } from 'zod';
import { BRAND_LOGOS, brandHosts, brandHostSchema, removeBrandHost, setBrandHost } from '../../modules/site';
import { defineCommand, flagArg, OpsError } from '../command';

const list = defineCommand({
  group: 'brands',
  name: 'list',
  summary: 'the brand of each host (configured by HUBLINK_BRANDS or set here)',
  input: z.object({}),
  async run(ctx) {
    const hosts = await brandHosts(ctx.config, ctx.db);
    return { table: Object.entries(hosts).map(([host, b]) => ({ host, name: b.name, logo: b.logo, own: b.own ? 1 : 0, filing: b.filing, set_by: b.set_by })) };
  },
});

const set = defineCommand({
  group: 'brands',
  name: 'set',
  summary: 'set the brand a host shows (its parent domains too, unless they have their own)',
  positionals: ['host'],
  options: {
    name: { help: 'shown in the top bar and the title' },
    logo: { help: `one of ${BRAND_LOGOS.join(', ')} (default: default)` },
    own: { help: '1: an own host (copyright, legal links, help documents, brand in the ticket intro); default 0' },
    filing: { help: 'the ICP filing number in the footer of own hosts' },
  },
  input: z.object({
    host: brandHostSchema,
    name: z.string({ error: '--name is required' }).trim().min(1, '--name is required').max(32, 'the brand name has at most 32 characters'),
    logo: z.enum(BRAND_LOGOS, { error: `the logo is one of ${BRAND_LOGOS.join(', ')}` }).default('default'),
    own: flagArg('own').default(0),
    filing: z.string().trim().max(64, 'the filing number has at most 64 characters').default(''),
  }),
  async run(ctx, input) {
    await setBrandHost(ctx.db, input.host, { name: input.name, logo: input.logo, own: input.own === 1, filing: input.filing });
    return { done: `${input.host} shows ${input.name}` };
  },
});

const remove = defineCommand({
  group: 'brands',
  name: 'remove',
  summary: 'remove a host set here (a configured host falls back to its configuration)',
  positionals: ['host'],
  input: z.object({ host: brandHostSchema }),
  async run(ctx, input) {
    if (!(await removeBrandHost(ctx.db, input.host))) throw new OpsError(`${input.host} was not set with 'brands set'`);
    return { done: `${input.host} removed` };
  },
});

export const brandCommands = [list, set, remove];
