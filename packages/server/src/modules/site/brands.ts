import { z } from 'zod';
import type { Ctx } from '../../core/context';
import type { Db } from '../../db/connect';

/*
 * Brand hosts: HUBLINK_BRANDS (or the built-in list) gives the start, and the operator sets or removes
 * hosts with `hublink ops brands …`, kept in the setting table under 'brands' so every instance sees a
 * change on its next request. A host the operator set wins over the configured one.
 */

export type Brand = Ctx['config']['brands'][string];
type Config = Ctx['config'];

const KEY = 'brands';

export const BRAND_LOGOS = ['default', 'blue', 'green', 'orange', 'local'] as const;

const brandSchema = z.object({
  name: z.string().trim().min(1, 'the brand name is required').max(32, 'the brand name has at most 32 characters'),
  logo: z.enum(BRAND_LOGOS, { error: `the logo is one of ${BRAND_LOGOS.join(', ')}` }),
  own: z.boolean(),
  filing: z.string().trim().max(64, 'the filing number has at most 64 characters'),
});
const storedSchema = z.record(z.string(), brandSchema);

/** A host name as browsers send it: letters, digits, dots and dashes, lower-cased. */
export const brandHostSchema = z
  .string({ error: 'a host is required' })
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'the host is a DNS name such as console.example.com');

export { brandSchema };

async function readStored(db: Db): Promise<Record<string, Brand>> {
  const row = await db.selectFrom('setting').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return {};
  const parsed = storedSchema.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : {};
}

/** The brands in force: the configured hosts with the operator's on top. */
export async function brandHosts(config: Config, db: Db): Promise<Record<string, Brand & { set_by: 'config' | 'operator' }>> {
  const out: Record<string, Brand & { set_by: 'config' | 'operator' }> = {};
  for (const [h, b] of Object.entries(config.brands)) out[h] = { ...b, set_by: 'config' };
  for (const [h, b] of Object.entries(await readStored(db))) out[h] = { ...b, set_by: 'operator' };
  return out;
}

export async function setBrandHost(db: Db, host: string, brand: Brand): Promise<void> {
  const key = brandHostSchema.parse(host);
  await db.transaction().execute(async (trx) => {
    const stored = { ...(await readStored(trx)), [key]: brandSchema.parse(brand) };
    await trx
      .insertInto('setting')
      .values({ key: KEY, value: JSON.stringify(stored) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(stored) }))
      .execute();
  });
}

/** Removes an operator-set host; answers false when the operator had not set it. */
export async function removeBrandHost(db: Db, host: string): Promise<boolean> {
  const key = brandHostSchema.parse(host);
  return db.transaction().execute(async (trx) => {
    const stored = await readStored(trx);
    if (!(key in stored)) return false;
    delete stored[key];
    await trx.updateTable('setting').set({ value: JSON.stringify(stored) }).where('key', '=', KEY).execute();
    return true;
  });
}
