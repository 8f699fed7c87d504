import { CLIENT_PLATFORMS, LIMITS, LINUX_ARCHS, LINUX_PANELS, publishReleaseInput, type ReleaseRecord } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import { listReleases, publishRelease, withdrawRelease, type ReleaseInput } from '../../modules/download';
import { defineCommand, intArg, LIMIT_OPTION, limitArg } from '../command';
import { fileArg } from '../files';

const row = (r: ReleaseRecord) => ({
  id: r.id,
  platform: r.platform,
  panel: r.panel ?? '',
  arch: r.arch ?? '',
  version: r.version,
  file: r.file_name ?? '',
  size: r.size ?? '',
  url: r.url ?? '',
  published: r.create_time,
});

const list = defineCommand({
  group: 'releases',
  name: 'list',
  summary: 'published client releases, newest first (the newest of each platform is the one offered)',
  options: LIMIT_OPTION,
  input: z.object({ limit: limitArg() }),
  async run(ctx: Ctx, input) {
    return { table: (await listReleases(ctx)).slice(0, input.limit).map(row) };
  },
});

const publish = defineCommand({
  group: 'releases',
  name: 'publish',
  summary: 'publish a client release: a package file served by HubLink, or a link (an app store)',
  options: {
    platform: { help: CLIENT_PLATFORMS.join(', ') },
    panel: { help: `linux only: ${LINUX_PANELS.join(', ')}` },
    arch: { help: `linux only: ${LINUX_ARCHS.join(', ')}` },
    version: { help: 'the version shown on the download page, e.g. 2.1.0' },
    notes: { help: 'what changed (several lines allowed)' },
    file: { help: `the package to serve (at most ${LIMITS.releaseFileMaxBytes / 1_048_576} MB)` },
    file_name: { help: 'the name a browser saves it under (default: the name of --file)' },
    url: { help: 'where the download sends the browser instead of a file' },
  },
  input: z
    .object({
      platform: z.string().optional(),
      panel: z.string().optional(),
      arch: z.string().optional(),
      version: z.string().optional(),
      notes: z.string().optional(),
      file: fileArg('--file', LIMITS.releaseFileMaxBytes).optional(),
      file_name: z.string().optional(),
      url: z.string().optional(),
    })
    .transform((v, ctx): ReleaseInput => {
      if (v.file_name !== undefined && !v.file) {
        ctx.addIssue({ code: 'custom', path: ['file_name'], message: '--file-name goes with --file' });
        return z.NEVER;
      }
      const facts = { platform: v.platform, panel: v.panel, arch: v.arch, version: v.version, notes: v.notes, url: v.url };
      const fileName = v.file ? (v.file_name ?? v.file.name) : undefined;
      // The console's rules and messages, checked here too so bad input is told as such (exit 2).
      const parsed = publishReleaseInput.safeParse({ ...facts, file_name: fileName });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const where = issue.path[0] === 'file_name' && v.file_name === undefined ? 'file' : issue.path[0];
        ctx.addIssue({ code: 'custom', path: where === undefined ? [] : [where], message: issue.message });
        return z.NEVER;
      }
      const d = parsed.data;
      return {
        platform: d.platform,
        panel: d.panel,
        arch: d.arch,
        version: d.version,
        notes: d.notes,
        url: d.url,
        ...(v.file ? { file: { name: fileName!, body: v.file.body } } : {}),
      };
    }),
  async run(ctx, input) {
    return { record: row(await publishRelease(ctx, input)) };
  },
});

const withdraw = defineCommand({
  group: 'releases',
  name: 'withdraw',
  summary: 'withdraw a release: no longer offered (the one before it is again) and its package deleted',
  positionals: ['id'],
  input: z.object({ id: intArg('id', 1) }),
  async run(ctx, input) {
    await withdrawRelease(ctx, input.id);
    return { done: `release ${input.id} withdrawn` };
  },
});

export const releaseCommands = [list, publish, withdraw];
