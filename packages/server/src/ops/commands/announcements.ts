import { readFile, stat } from 'node:fs/promises';
import { LIMITS, publishAnnouncementInput } from '@hublink/contract';
import { z } from 'zod';
import { allAnnouncements, markdownToHtml, publishAnnouncement, withdrawAnnouncement } from '../../modules/announcement';
import { defineCommand, epochOf, intArg, LIMIT_OPTION, limitArg, OpsError, shownTime, timeArg } from '../command';
import { cliPath } from '../files';

const list = defineCommand({
  group: 'announcements',
  name: 'list',
  summary: 'every announcement, the scheduled ones too, latest release first',
  options: LIMIT_OPTION,
  input: z.object({ limit: limitArg() }),
  async run(ctx, input) {
    const rows = await allAnnouncements(ctx, input.limit);
    return {
      table: rows.map((a) => ({ id: a.id, title: a.title, tag: a.tag, release_time: shownTime(ctx, a.release_time), released: a.released ? 'yes' : 'no' })),
    };
  },
});

const tooBig = (path: string) => new OpsError(`${path} is too big: an announcement has at most ${LIMITS.richTextMax} characters`);

/** The text of --file. */
async function readContentFile(given: string): Promise<string> {
  const path = cliPath(given);
  const cannot = (e: NodeJS.ErrnoException) =>
    new OpsError(`cannot read ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.message}`);
  const st = await stat(path).catch((e) => Promise.reject(cannot(e)));
  if (!st.isFile()) throw new OpsError(`cannot read ${path}: not a file`);
  // A character is at most 4 bytes of UTF-8: a larger file is too big whatever it holds, and is not read.
  if (st.size > LIMITS.richTextMax * 4) throw tooBig(path);
  const text = await readFile(path, 'utf8').catch((e) => Promise.reject(cannot(e)));
  if (text.length > LIMITS.richTextMax) throw tooBig(path);
  return text;
}

const publish = defineCommand({
  group: 'announcements',
  name: 'publish',
  summary: 'publish an announcement to every tenant (now, or at --release-time)',
  options: {
    title: { help: `the title (at most ${LIMITS.announcementTitleMax} characters)` },
    tag: { help: `a short label shown beside it (at most ${LIMITS.announcementTagMax} characters)` },
    content: { help: 'the content as HTML (or Markdown with --markdown)' },
    file: { help: 'read the content from this file instead; a .md file is Markdown' },
    markdown: { boolean: true, help: 'the content is Markdown' },
    release_time: { help: 'when tenants see it (a time: YYYY-MM-DD, ISO 8601 with offset, now or +N d/m/y; default now)' },
  },
  input: z
    .object({
      title: publishAnnouncementInput.shape.title,
      tag: publishAnnouncementInput.shape.tag,
      content: publishAnnouncementInput.shape.content.optional(),
      file: z.string().trim().min(1, 'the file path is empty').optional(),
      markdown: z.boolean().optional(),
      release_time: timeArg('release-time').optional(),
    })
    .refine((v) => (v.content === undefined) !== (v.file === undefined), { message: 'give exactly one of --content and --file' }),
  async run(ctx, input) {
    const text = input.file === undefined ? input.content! : await readContentFile(input.file);
    const isMarkdown = input.markdown === true || (input.file !== undefined && /\.md$/i.test(input.file));
    const id = await publishAnnouncement(ctx, {
      title: input.title,
      tag: input.tag,
      content: isMarkdown ? markdownToHtml(text) : text,
      release_time: input.release_time === undefined ? undefined : epochOf(ctx, input.release_time),
    });
    const when = input.release_time === undefined ? '' : ` (released ${shownTime(ctx, epochOf(ctx, input.release_time))})`;
    return { done: `announcement ${id} published${when}`, data: { id } };
  },
});

const withdraw = defineCommand({
  group: 'announcements',
  name: 'withdraw',
  summary: 'remove an announcement (tenants no longer see it)',
  positionals: ['id'],
  input: z.object({ id: intArg('the announcement id', 1, LIMITS.maxId) }),
  async run(ctx, input) {
    if (!(await withdrawAnnouncement(ctx, input.id))) throw new OpsError(`no announcement ${input.id}`);
    return { done: `announcement ${input.id} withdrawn` };
  },
});

export const announcementCommands = [list, publish, withdraw];
