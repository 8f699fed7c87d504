import { siteInfo } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';

/** The brand of a host: an exact entry, then its parent domains, then a neutral non-own default. */
export function brandOf(config: Ctx['config'], hostname: string) {
  const host = hostname.replace(/:\d+$/, '').toLowerCase();
  if (host === '127.0.0.1' || host === '[::1]') return config.brands.localhost!;
  for (let h = host; h; h = h.includes('.') ? h.slice(h.indexOf('.') + 1) : '') {
    const b = config.brands[h];
    if (b) return b;
  }
  return { name: 'HubLink', logo: 'default' as const, own: false, filing: '' };
}

export function siteRoutes(app: App, ctx: Ctx) {
  route(app, ctx, siteInfo, async ({ hostname }) => ok({ brand: brandOf(ctx.config, hostname) }));
}
