import {
  checkLdap,
  deleteLdap,
  downloadLdapVerifyFile,
  fmt,
  getLdapConfig,
  importAllLdapUsers,
  importLdapUser,
  ldapStatus,
  ldapSyncStatus,
  listLdapUsers,
  M,
  previewLdap,
  removeAllLdapUsers,
  removeDisabledLdapUsers,
  removeLdapUser,
  restartLdapSync,
  saveLdap,
  setLdapSyncMode,
  syncLdap,
  uploadLdapCa,
  verifyLdapDomain,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, uploadedFile, type App } from '../../core/http';
import * as settings from './config';
import { verifyDomain, verifyFile } from './domain';
import { caUploadError, uploadCa } from './files';
import * as users from './users';

export function ldapRoutes(app: App, ctx: Ctx) {
  route(app, ctx, ldapStatus, async ({ actor }) => ok(await settings.status(ctx, actor)));
  route(app, ctx, getLdapConfig, async ({ actor }) => ok(await settings.config(ctx, actor)));
  route(app, ctx, checkLdap, async ({ actor, body }) => {
    await settings.check(ctx, actor, body);
    return ok(null, M.ldapChecked);
  });
  route(app, ctx, previewLdap, async ({ actor, body }) => {
    const answer = await settings.preview(ctx, actor, body);
    return ok(answer, fmt(M.ldapPreviewCount, { n: answer.count, m: answer.users.length }));
  });
  route(app, ctx, saveLdap, async ({ actor, body }) => {
    await settings.save(ctx, actor, body);
    return ok(null, M.ldapSaved);
  });
  route(app, ctx, deleteLdap, async ({ actor }) => {
    await settings.close(ctx, actor);
    return ok(null, M.ldapClosed);
  });
  route(app, ctx, uploadLdapCa, async ({ actor, req }) => {
    const file = await uploadedFile(req).catch((err: unknown) => Promise.reject(caUploadError(err)));
    return ok(await uploadCa(ctx, actor, file), M.ldapUploaded);
  });
  route(app, ctx, downloadLdapVerifyFile, async ({ actor, query }) => verifyFile(ctx, actor, query.domain));
  route(app, ctx, verifyLdapDomain, async ({ actor, body }) => {
    await verifyDomain(ctx, actor, body.domain);
    return ok(null, M.ldapDomainVerified);
  });
  route(app, ctx, listLdapUsers, async ({ actor, query }) => {
    const { list, hash, count } = await users.list(ctx, actor, query);
    return ok({ list, hash }, 'success', count);
  });
  route(app, ctx, importLdapUser, async ({ actor, body }) => {
    await users.importOne(ctx, actor, body.hash, body.uuid);
    return ok(null, M.ldapImported);
  });
  route(app, ctx, importAllLdapUsers, async ({ actor, body }) => {
    const done = await users.importAll(ctx, actor, body.hash);
    return ok(done, fmt(M.ldapImportDone, done));
  });
  route(app, ctx, removeLdapUser, async ({ actor, body }) => {
    await users.removeOne(ctx, actor, body.hash, body.uuid);
    return ok(null, M.ldapRemoved);
  });
  route(app, ctx, removeAllLdapUsers, async ({ actor, body }) => {
    const count = await users.removeMany(ctx, actor, body.hash, 'all');
    return ok({ count }, fmt(M.ldapRemoveDone, { n: count }));
  });
  route(app, ctx, removeDisabledLdapUsers, async ({ actor, body }) => {
    const count = await users.removeMany(ctx, actor, body.hash, 'disabled');
    return ok({ count }, fmt(M.ldapRemoveDone, { n: count }));
  });
  route(app, ctx, syncLdap, async ({ actor, body }) => {
    await settings.syncOnce(ctx, actor, body.hash);
    return ok(null, M.ldapSynced);
  });
  route(app, ctx, setLdapSyncMode, async ({ actor, body }) => {
    await settings.setSyncMode(ctx, actor, body.sync_mode);
    return ok(null, M.ldapSyncModeSaved);
  });
  route(app, ctx, ldapSyncStatus, async ({ actor }) => ok(await settings.syncStatus(ctx, actor)));
  route(app, ctx, restartLdapSync, async ({ actor }) => {
    await settings.restart(ctx, actor);
    return ok(null, M.ldapSyncRestarted);
  });
}
