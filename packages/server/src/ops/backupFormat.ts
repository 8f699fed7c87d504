import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/*
 * The archive `hublink backup` writes and `hublink restore` reads: a gzipped tar whose first entry is
 * manifest.json and whose other entries are the data dir's files under data/, each listed in the
 * manifest with its size and sha256. Nothing else (no folders, links or devices) is in it.
 */

export const ARCHIVE_FORMAT = 'hublink-backup';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const DATA_PREFIX = 'data/';
export const SQLITE_FILE = 'hublink.sqlite';
/** A manifest bigger than this is not one we wrote (a million files is about 150 MB of it). */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

/**
 * A data dir path as the archive may hold it: relative, '/'-separated, no empty, '.' or '..' part,
 * no backslash, NUL or control character, at most 1024 characters.
 */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.length > 1024 || p.startsWith('/')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(p)) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

const fileSchema = z.object({
  path: z.string().refine(isSafeRelativePath, 'an unsafe path'),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int().positive(),
  created: z.string(),
  hublink: z.string(),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    /** The migrations the database had when it was copied (or, on PostgreSQL, when the archive was made). */
    migrations: z.array(z.string()),
  }),
  /** file: secret.key is in the archive; environment: HUBLINK_SECRET_KEY, kept elsewhere; none: no key yet. */
  secretKey: z.enum(['file', 'environment', 'none']),
  /** local: uploads are under storage/ in the archive; s3: in the bucket of S3_URL, not in the archive. */
  storage: z.enum(['local', 's3']),
  files: z.array(fileSchema),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

/** The version of the HubLink that runs this (the server package's). */
export function hublinkVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** What the operator is told about the parts of an install an archive does not hold. */
export function notesOf(m: Pick<Manifest, 'database' | 'secretKey' | 'storage'>, when: 'backup' | 'restore'): string[] {
  const notes: string[] = [];
  if (m.database.kind === 'postgres') {
    notes.push(
      when === 'backup'
        ? 'the database is PostgreSQL and is not in this archive: dump it with pg_dump -Fc (docs/operations.md, "Backup and restore")'
        : 'the database was PostgreSQL and is not in this archive: restore it with pg_restore (docs/operations.md, "Backup and restore")',
    );
  }
  if (m.secretKey === 'environment') {
    notes.push(
      when === 'backup'
        ? 'the secret key comes from HUBLINK_SECRET_KEY and is not in this archive: keep it separately, the restored install needs the same one'
        : 'the secret key was HUBLINK_SECRET_KEY and is not in this archive: start the server with the same HUBLINK_SECRET_KEY',
    );
  }
  if (m.storage === 's3') {
    notes.push('files (uploads, imports) are in the S3 bucket of S3_URL, not in this archive: back the bucket up with its own tools');
  }
  return notes;
}

export const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
