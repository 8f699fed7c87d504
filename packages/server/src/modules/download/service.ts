import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  fmt,
  LIMITS,
  M,
  publishReleaseInput,
  type ClientPlatform,
  type LinuxArch,
  type LinuxPanel,
  type LinuxReleaseItem,
  type PublishReleaseInput,
  type ReleaseItem,
  type ReleaseRecord,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { FileAnswer, RedirectAnswer } from '../../core/http';
import { formatTime } from '../../core/time';
import type { ClientReleaseTable } from '../../db/types';

/** Client packages are the service's own files (tenant 0 of the storage). */
const FILE_TENANT = 0;

/** What publishRelease takes: the release's facts and either a package (its name and bytes) or a link. */
export type ReleaseInput = Omit<PublishReleaseInput, 'file_name'> & { file?: { name: string; body: Buffer } };

type Row = Selectable<ClientReleaseTable>;

/** An Android browser offers to install a package only when it is served as one. */
const contentTypeOf = (name: string) => (name.toLowerCase().endsWith('.apk') ? 'application/vnd.android.package-archive' : 'application/octet-stream');

function recordOf(ctx: Ctx, r: Row): ReleaseRecord {
  return {
    id: r.id,
    platform: r.platform as ClientPlatform,
    panel: (r.panel || null) as LinuxPanel | null,
    arch: (r.arch || null) as LinuxArch | null,
    version: r.version,
    notes: r.notes,
    file_name: r.file_name,
    size: r.file_size,
    url: r.url,
    create_time: formatTime(r.create_time, ctx.config.timezone),
  };
}

/**
 * Publishes a client release (the operator, `hublink ops`): it becomes the newest of its platform (for
 * Linux, of its panel and architecture) and the download page offers it at once. A package is kept in
 * storage and streamed by the download call; a link (an app store) is where that call sends the browser.
 * Refuses with 422 and the first failing rule's message, storing nothing.
 */
export async function publishRelease(ctx: Ctx, input: ReleaseInput): Promise<ReleaseRecord> {
  const { file, ...facts } = input;
  const parsed = publishReleaseInput.safeParse({ ...facts, ...(file ? { file_name: file.name } : {}) });
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? M.validationFailed);
  const v = parsed.data;
  if (file && file.body.length === 0) throw invalid(M.releaseFileEmpty);
  if (file && file.body.length > LIMITS.releaseFileMaxBytes) throw invalid(fmt(M.releaseFileTooLarge, { n: LIMITS.releaseFileMaxBytes / 1_048_576 }));

  const fileKey = file ? `releases/${randomBytes(12).toString('hex')}` : null;
  if (file && fileKey) await ctx.storage.put(FILE_TENANT, fileKey, file.body, contentTypeOf(file.name));
  try {
    const row = await ctx.db
      .insertInto('client_release')
      .values({
        platform: v.platform,
        panel: v.panel ?? '',
        arch: v.arch ?? '',
        version: v.version,
        notes: v.notes,
        file_key: fileKey,
        file_name: v.file_name ?? null,
        file_size: file ? file.body.length : null,
        url: v.url ?? null,
        create_time: Date.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return recordOf(ctx, row);
  } catch (err) {
    if (fileKey) await ctx.storage.delete(FILE_TENANT, fileKey);
    throw err;
  }
}

/**
 * Withdraws a release: the download page no longer offers it (the one published before it, if any, is
 * the newest again) and its package is deleted. 204 for an unknown id.
 */
export async function withdrawRelease(ctx: Ctx, id: number): Promise<void> {
  const row = await ctx.db.deleteFrom('client_release').where('id', '=', id).returning(['file_key']).executeTakeFirst();
  if (!row) throw notFound(M.releaseNotFound);
  if (row.file_key) {
    await ctx.storage.delete(FILE_TENANT, row.file_key).catch((err: unknown) => ctx.log.error({ err, id }, 'withdrawn release: its package could not be deleted'));
  }
}

/** Every release, newest first (the operator's list). */
export async function listReleases(ctx: Ctx): Promise<ReleaseRecord[]> {
  const rows = await ctx.db.selectFrom('client_release').selectAll().orderBy('create_time', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => recordOf(ctx, r));
}

/** The newest release of each platform, panel and architecture: the one published last. */
async function newestRows(ctx: Ctx, where?: { platform: ClientPlatform; panel?: string; arch?: string }): Promise<Row[]> {
  let q = ctx.db.selectFrom('client_release').selectAll().orderBy('create_time', 'desc').orderBy('id', 'desc');
  if (where) q = q.where('platform', '=', where.platform).where('panel', '=', where.panel ?? '').where('arch', '=', where.arch ?? '').limit(1);
  const seen = new Set<string>();
  return (await q.execute()).filter((r) => {
    const key = `${r.platform}/${r.panel}/${r.arch}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function itemOf(ctx: Ctx, r: Row): ReleaseItem {
  return { version: r.version, notes: r.notes, create_time: formatTime(r.create_time, ctx.config.timezone), source: r.url ? 'url' : 'file', size: r.url ? null : r.file_size };
}

/** GET /api/download/version: the newest release per platform, Linux by panel and platform. */
export async function versions(ctx: Ctx) {
  const rows = await newestRows(ctx);
  const one = (platform: ClientPlatform) => {
    const r = rows.find((x) => x.platform === platform);
    return r ? itemOf(ctx, r) : null;
  };
  const linux: LinuxReleaseItem[] = rows
    .filter((r) => r.platform === 'linux')
    .map((r) => ({ ...itemOf(ctx, r), panel: r.panel as LinuxPanel, platform: r.arch as LinuxArch }))
    .sort((a, b) => a.panel.localeCompare(b.panel) || a.platform.localeCompare(b.platform));
  return { windows: one('windows'), macos: one('macos'), android: one('android'), ios: one('ios'), linux };
}

/** GET /api/download/{platform}: the newest package, streamed, or a redirect to its link; 204 when there is none. */
export async function download(ctx: Ctx, platform: ClientPlatform, linux?: { panel: LinuxPanel; platform: LinuxArch }): Promise<FileAnswer | RedirectAnswer> {
  const [row] = await newestRows(ctx, { platform, panel: linux?.panel, arch: linux?.platform });
  if (!row) throw notFound(M.downloadNone);
  if (row.url) return new RedirectAnswer(row.url);
  const stored = row.file_key ? await ctx.storage.stream(FILE_TENANT, row.file_key) : null;
  if (!stored || !row.file_name) {
    ctx.log.error({ release: row.id }, 'a published client package is missing from storage');
    throw notFound(M.downloadNone);
  }
  // The same address serves the next release once it is published: a cache must ask again.
  return new FileAnswer(row.file_name, stored.contentType, stored.stream, { size: stored.size, cacheControl: 'no-cache' });
}
