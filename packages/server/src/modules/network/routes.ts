import type { Ctx } from '../../core/context';
import type { App } from '../../core/http';

export function networkRoutes(app: App, ctx: Ctx) {
  void app;
  void ctx;
}
