import {
  disableQuagga,
  editCenterGateway,
  editCenterLinkGateway,
  editIpPool,
  editPrefix,
  editRouting,
  enableCenterLink,
  enableQuagga,
  M,
  setCenterLink,
  setCiphers,
  setDefaultRoute,
  setDns,
  setFixedPort,
  setMemberOv,
  setNetworkFr,
  setPointLink,
  setQuagga,
  setSoftwareMode,
  type Endpoint,
  type PreviewablePath,
  type PreviewAnswer,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import { noteEffect } from '../../core/audit';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { EffectFailed, saveWithEffect } from '../../core/preview';
import * as pop from './pop';
import * as segments from './segments';
import * as settings from './settings';

/*
 * The settings calls of the network detail's dialogs (spec 2 §7), each by the service it runs and the
 * message its success answers: the routes, and the preview that runs the same service and rolls it
 * back (preview.ts, issue 36).
 */

type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : never;

export interface SettingsChange {
  endpoint: Endpoint & { body: z.ZodType; path: PreviewablePath };
  run: (ctx: Ctx, actor: Actor, body: unknown) => Promise<unknown>;
  done: string;
}

const change = <E extends Endpoint & { body: z.ZodType; path: PreviewablePath }>(endpoint: E, run: (ctx: Ctx, actor: Actor, body: BodyOf<E>) => Promise<unknown>, done: string): SettingsChange => ({
  endpoint,
  run: run as SettingsChange['run'],
  done,
});

export const SETTINGS_CHANGES: readonly SettingsChange[] = [
  change(editRouting, (ctx, actor, b) => settings.editRouting(ctx, actor, b), M.networkSetDone),
  change(setDns, (ctx, actor, b) => settings.setDns(ctx, actor, b.network_number, b.dns), M.saved),
  change(setDefaultRoute, (ctx, actor, b) => settings.setDefaultRoute(ctx, actor, b), M.networkSetDone),
  change(setCiphers, (ctx, actor, b) => settings.setCiphers(ctx, actor, b.network_number, b.ncp_ciphers), M.modified),
  change(setSoftwareMode, (ctx, actor, b) => settings.setDialMode(ctx, actor, b.network_number, b.router_name, b.mode), M.networkSetDone),
  change(setQuagga, (ctx, actor, b) => settings.setQuagga(ctx, actor, b.network_number, b.router_name, b.enable), M.networkSetDone),
  change(enableQuagga, (ctx, actor, b) => settings.setQuaggaAll(ctx, actor, b.network_number, 1), M.networkSetDone),
  change(disableQuagga, (ctx, actor, b) => settings.setQuaggaAll(ctx, actor, b.network_number, 0), M.networkSetDone),
  change(editPrefix, (ctx, actor, b) => segments.editPrefix(ctx, actor, b.network_number, b.prefix ?? []), M.saved),
  change(setFixedPort, (ctx, actor, b) => segments.setFixedPort(ctx, actor, b), M.networkSetDone),
  change(editCenterGateway, (ctx, actor, b) => segments.editCenterGateway(ctx, actor, b), M.networkSetDone),
  change(enableCenterLink, (ctx, actor, b) => segments.enableInterconnect(ctx, actor, b.network_number, b.enable), M.networkSetDone),
  change(editCenterLinkGateway, (ctx, actor, b) => segments.editInterconnectSegment(ctx, actor, b.network_number, { gateway: b.gateway, mask: b.mask }), M.networkSetDone),
  change(setCenterLink, (ctx, actor, b) => segments.setCenterLink(ctx, actor, b), M.networkSetDone),
  change(setPointLink, (ctx, actor, b) => segments.setPointLinks(ctx, actor, b.network_number, b.link_config ?? {}), M.saved),
  change(setNetworkFr, (ctx, actor, b) => pop.setFr(ctx, actor, b), M.networkSetDone),
  change(setMemberOv, (ctx, actor, b) => pop.setMemberOv(ctx, actor, b), M.saved),
  change(editIpPool, (ctx, actor, b) => pop.editIpPool(ctx, actor, b), M.saved),
];

/**
 * Runs a settings change for real. What it did (the preview's comparison, taken around the same change)
 * is kept with the version it wrote and in its audit entry, so history and audit show what the dialog
 * showed before the save. The change has committed by then: a comparison that fails is logged, never
 * the call's answer.
 */
export async function saveKeepingEffect(ctx: Ctx, actor: Actor, run: () => Promise<unknown>): Promise<void> {
  const saved = await saveWithEffect<PreviewAnswer>(ctx, 'network', run).catch((err: unknown) => {
    if (err instanceof EffectFailed) {
      ctx.log.error({ err: err.cause }, 'network: the effect of a saved change was not worked out');
      return null;
    }
    throw err;
  });
  if (!saved?.effect) return;
  const { viewer: _viewer, ...effect } = saved.effect;
  if (saved.subject !== null && saved.record !== null) {
    await ctx.db
      .updateTable('network_version')
      .set({ effect: JSON.stringify(effect) })
      .where('tenant_id', '=', actor.tenantId)
      .where('network_id', '=', saved.subject)
      .where('version', '=', saved.record)
      .execute();
  }
  noteEffect(effect);
}

export function changeRoutes(app: App, ctx: Ctx) {
  for (const c of SETTINGS_CHANGES) {
    route(app, ctx, c.endpoint, async ({ actor, body }) => {
      await saveKeepingEffect(ctx, actor as Actor, () => c.run(ctx, actor as Actor, body));
      return ok(null, c.done);
    });
  }
}
