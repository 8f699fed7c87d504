import type { Ctx } from '../../core/context';
import type { App } from '../../core/http';

export function routerRoutes(app: App, ctx: Ctx) {
  void app;
  void ctx;
}
