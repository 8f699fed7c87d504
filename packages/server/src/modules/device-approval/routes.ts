import { approveDevice, getDeviceApprovalSetting, listDeviceApprovals, M, refuseDevice, saveDeviceApprovalSetting } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as approval from './service';

export function deviceApprovalRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getDeviceApprovalSetting, async ({ actor }) => ok(await approval.getSetting(ctx, actor)));
  route(app, ctx, saveDeviceApprovalSetting, async ({ actor, body }) => {
    await approval.saveSetting(ctx, actor, body.enabled);
    return ok(null, M.deviceApprovalSaved);
  });
  route(app, ctx, listDeviceApprovals, async ({ actor, query }) => {
    const { rows, count } = await approval.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, approveDevice, async ({ actor, body }) => {
    await approval.decide(ctx, actor, body.id, 'approved');
    return ok(null, M.deviceApproved);
  });
  route(app, ctx, refuseDevice, async ({ actor, body }) => {
    await approval.decide(ctx, actor, body.id, 'refused');
    return ok(null, M.deviceRefused);
  });
}
