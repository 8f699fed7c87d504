import { getMemberConfig, getMemberProfile, memberProfiles, reissueMemberProfile, CM } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { ok } from '../core/errors';
import { route, type App } from '../core/http';
import { providePreview } from '../core/preview';
import { networkEffect, networkSnapshot } from './preview';
import { memberConfigOf } from './memberConfig';
import { profileOf, profilesOf, reissueProfile } from './profileService';

/** The compiler's calls: a member's current configuration (support), a software member's profile and its re-issue. */
export function compilerRoutes(app: App, ctx: Ctx) {
  // What a settings preview of the network module compares (core/preview.ts).
  providePreview(ctx, 'network', { snapshot: networkSnapshot, compare: networkEffect });
  route(app, ctx, getMemberConfig, async ({ actor, query }) => ok(await memberConfigOf(ctx, actor, query.network_number, query.router_name)));
  route(app, ctx, getMemberProfile, async ({ actor, query }) => profileOf(ctx, actor, query.network_number, query.router_name));
  route(app, ctx, memberProfiles, async ({ actor, query }) => ok(await profilesOf(ctx, actor, query.router_name)));
  route(app, ctx, reissueMemberProfile, async ({ actor, body }) => {
    await reissueProfile(ctx, actor, body.router_name);
    return ok(null, CM.profileReissued);
  });
}
