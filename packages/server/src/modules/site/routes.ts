import { siteInfo } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { brandHosts, type Brand } from './brands';

/** The brand of a host: an exact entry, then its parent domains, then a neutral non-own default. */
export function brandOf(brands: Record<string, Brand>, hostname: string): Brand {
  const host = hostname.replace(/:\d+$/, '').toLowerCase();
  const shown = (b: Brand): Brand => ({ name: b.name, logo: b.logo, own: b.own, filing: b.filing });
  if (host === '127.0.0.1' || host === '[::1]') return shown(brands.localhost!);
  for (let h = host; h; h = h.includes('.') ? h.slice(h.indexOf('.') + 1) : '') {
    const b = brands[h];
    if (b) return shown(b);
  }
  return { name: 'HubLink', logo: 'default' as const, own: false, filing: '' };
}

export function siteRoutes(app: App, ctx: Ctx) {
  route(app, ctx, siteInfo, async ({ hostname }) => ok({ brand: brandOf(await brandHosts(ctx.config, ctx.db), hostname) }));
}
