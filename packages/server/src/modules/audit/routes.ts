import { auditExport, auditList, auditSettingGet, auditSettingSave, M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as audit from './service';

/** The audit trail: read, export and the retention setting. No call changes or deletes an entry. */
export function auditRoutes(app: App, ctx: Ctx) {
  route(app, ctx, auditList, async ({ actor, query }) => {
    const { rows, count } = await audit.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, auditExport, async ({ actor, query }) => ok(await audit.exportEntries(ctx, actor, query)));
  route(app, ctx, auditSettingGet, async ({ actor }) => ok(await audit.setting(ctx, actor)));
  route(app, ctx, auditSettingSave, async ({ actor, body }) => {
    await audit.saveSetting(ctx, actor, body);
    return ok(null, M.saved);
  });
}
