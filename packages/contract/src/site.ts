import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Branding of the host the console is served on (four variants plus local). */
export const brand = z.object({
  name: z.string(),
  logo: z.enum(['default', 'blue', 'green', 'orange', 'local']),
  own: z.boolean(),
  filing: z.string(),
});
export type Brand = z.infer<typeof brand>;

export const siteInfo = defineEndpoint({
  path: '/site/info',
  method: 'GET',
  access: 'public',
  response: z.object({ brand }),
});
