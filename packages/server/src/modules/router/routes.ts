import {
  addRouter,
  batchAddRouters,
  batchDeleteRouters,
  batchDeleteRoutersFile,
  batchStatus,
  deleteRouter,
  exportRouters,
  LIMITS,
  listRouters,
  M,
  noteRouter,
  ROUTER_TYPE,
  routerHardware,
  routerInfo,
  routerMembers,
  routerPassword,
  routerPhone,
  routerQuantity,
  routerSoftware,
  routerTraffic,
  softwareDeleteTemplate,
  softwareTemplate,
  updateRouterStatus,
  routerDiagnosis,
  networkDelivery,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, uploadedFile, type App } from '../../core/http';
import * as batch from './batch';
import * as files from './files';
import { startImport } from './importJob';
import { importStatus } from './importStatus';
import { bindMemberPhone } from './phone';
import { serveTrafficStream } from './stream';
import * as members from './service';
import { delivery } from './delivery';
import { diagnose } from './diagnosis';

export function routerRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listRouters, async ({ actor, query }) => {
    const { rows, count } = await members.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, routerMembers, async ({ actor }) => ok(await members.members(ctx, actor)));
  route(app, ctx, routerQuantity, async ({ actor }) => ok(await members.quantity(ctx, actor)));
  route(app, ctx, routerSoftware, async ({ actor, query }) =>
    ok(await members.options(ctx, actor, ROUTER_TYPE.software, query.search, LIMITS.memberPickerMax)),
  );
  route(app, ctx, routerHardware, async ({ actor, query }) =>
    ok(await members.options(ctx, actor, ROUTER_TYPE.hardware, query.search, LIMITS.memberPickerMax)),
  );
  route(app, ctx, routerInfo, async ({ actor, query }) => ok(await members.info(ctx, actor, query.router_name)));
  route(app, ctx, routerDiagnosis, async ({ actor, query }) => ok(await diagnose(ctx, actor, query.router_name)));
  route(app, ctx, networkDelivery, async ({ actor, query }) => ok(await delivery(ctx, actor, query.network_number, query)));
  route(
    app,
    ctx,
    routerTraffic,
    async ({ actor, query }) => ok(await members.traffic(ctx, actor, query.router_name)),
    (socket, req) => serveTrafficStream(ctx, socket, req),
  );
  route(app, ctx, noteRouter, async ({ actor, body }) => {
    await members.setNote(ctx, actor, body.router_name, body.note);
    return ok(null, M.saved);
  });
  route(app, ctx, deleteRouter, async ({ actor, body }) => {
    await members.remove(ctx, actor, body.router_name);
    return ok(null, M.deleted);
  });
  route(app, ctx, updateRouterStatus, async ({ actor, body }) => {
    const r = await members.toggleStatus(ctx, actor, body.router_name);
    return ok(r, r.status === 1 ? M.memberStatusEnabled : M.memberStatusDisabled);
  });
  route(app, ctx, addRouter, async ({ actor, body }) => {
    await members.add(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, routerPhone, async ({ actor, body }) => ok(null, await bindMemberPhone(ctx, actor, body)));
  route(app, ctx, routerPassword, async ({ actor, body }) => {
    await members.setPassword(ctx, actor, body.router_name, body.password);
    return ok(null, M.memberPasswordChanged);
  });
  route(app, ctx, batchAddRouters, async ({ actor, req }) => ok(await startImport(ctx, actor, await uploadedFile(req)), M.importStarted));
  route(app, ctx, batchStatus, async ({ actor, query }) => ok(await importStatus(ctx, actor, query.id)));
  route(app, ctx, batchDeleteRouters, async ({ actor, body }) => ok(await batch.batchDelete(ctx, actor, body.router_name), M.batchDone));
  route(app, ctx, batchDeleteRoutersFile, async ({ actor, req }) =>
    ok(await batch.batchDeleteFile(ctx, actor, await uploadedFile(req)), M.batchDone),
  );
  route(app, ctx, exportRouters, async ({ actor, query }) => files.exportMembers(ctx, actor, query));
  route(app, ctx, softwareTemplate, async () => files.importTemplate());
  route(app, ctx, softwareDeleteTemplate, async () => files.deleteTemplate());
}
