import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../../config';
import { HandbookError, importDocuments } from '../../modules/document';
import { defineCommand, OpsError } from '../command';
import { cliPath } from '../files';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const importCommand = defineCommand({
  group: 'docs',
  name: 'import',
  summary: 'replace the help documents with a handbook folder (index.md and the files it lists; default HUBLINK_HANDBOOK_DIR, else docs/handbook)',
  positionals: ['dir?'],
  input: z.object({ dir: z.string().trim().min(1, 'the folder is empty').optional() }),
  async run(ctx, input) {
    // HUBLINK_HANDBOOK_DIR, else the repository's docs/handbook (the configuration's default).
    const dir = input.dir ? cliPath(input.dir) : path.resolve(ctx.config.handbookDir || loadConfig({}).handbookDir);
    try {
      const summary = await importDocuments(ctx, dir);
      return { done: `imported ${count(summary.sections, 'section')}, ${count(summary.documents, 'document')} and ${count(summary.images, 'image')} from ${dir}`, data: { dir, ...summary } };
    } catch (e) {
      if (e instanceof HandbookError) throw new OpsError(`${dir}: ${e.message}`);
      throw e;
    }
  },
});

export const docCommands = [importCommand];
