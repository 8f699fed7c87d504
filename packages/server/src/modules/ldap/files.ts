import { randomUUID, X509Certificate } from 'node:crypto';
import { LDAP_CA_EXTENSIONS, M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import type { Upload } from '../../core/http';
import type { Db } from '../../db/connect';

/*
 * The CA certificate a tenant uploads for LDAPS or StartTLS (spec 3 §5): judged by its name (cert,
 * crt, cer, pem) and by its content, which must be PEM certificates and nothing else (a private key
 * pasted in by mistake is refused, not stored). What is stored is the certificates as parsed.
 */

/** Certificates one file may carry (a chain and then some). */
const CERTIFICATES_MAX = 20;
/** Uploads a tenant keeps beside the one its configuration uses: the latest few, for a form not yet saved. */
const SPARE_UPLOADS = 5;
const FILE_NAME_MAX = 255;

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The certificates of a PEM text, each re-encoded as parsed; null when it holds anything but certificates, or none. */
export function pemCertificates(text: string): string[] | null {
  const certificates: string[] = [];
  for (const [block, label] of text.matchAll(BLOCK)) {
    if (label !== 'CERTIFICATE' || certificates.length >= CERTIFICATES_MAX) return null;
    try {
      certificates.push(new X509Certificate(block).toString());
    } catch {
      return null;
    }
  }
  // A BEGIN line without its END is a block cut short, not text around the certificates.
  if (/-----BEGIN /.test(text.replace(BLOCK, ''))) return null;
  return certificates.length > 0 ? certificates : null;
}

/** The name as the console shows it: no folders, no control characters, bounded. */
// eslint-disable-next-line no-control-regex -- dropping control characters is the point
const shownName = (name: string) => (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(-FILE_NAME_MAX) || 'ca.pem';

/** POST /ldap/upload: stores a CA file of the tenant; answers its id for the form's ca_id. */
export async function uploadCa(ctx: Ctx, actor: Actor, file: Upload): Promise<{ ca_id: number; file_name: string }> {
  const ext = /\.([^.]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
  if (!(LDAP_CA_EXTENSIONS as readonly string[]).includes(ext)) throw invalid(M.ldapCaFormat);
  const certificates = pemCertificates(file.body.toString('utf8'));
  if (!certificates) throw invalid(M.ldapCaNotCertificate);
  const key = `ldap/ca-${randomUUID()}.pem`;
  const fileName = shownName(file.filename);
  await ctx.storage.put(actor.tenantId, key, Buffer.from(certificates.join('')), 'application/x-pem-file');
  const row = await ctx.db
    .insertInto('ldap_file')
    .values({ tenant_id: actor.tenantId, file_name: fileName, storage_key: key, create_time: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await pruneUploads(ctx, actor.tenantId);
  return { ca_id: Number(row.id), file_name: fileName };
}

/** The multipart reader's size refusal in this form's words ('文件不能超过2MB'). */
export function caUploadError(err: unknown): unknown {
  return err instanceof ApiError && err.message === M.fileTooLarge ? invalid(M.ldapCaTooLarge) : err;
}

/** Deletes files (rows and objects): `except` the one in use; with `keep`, the newest that many too. */
async function deleteUploads(ctx: Ctx, tenantId: number, except: number | null, keep: number): Promise<void> {
  const spare = await ctx.db
    .selectFrom('ldap_file')
    .select(['id', 'storage_key'])
    .where('tenant_id', '=', tenantId)
    .$if(except !== null, (qb) => qb.where('id', '!=', except!))
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (spare.length === 0) return;
  await ctx.db
    .deleteFrom('ldap_file')
    .where('tenant_id', '=', tenantId)
    .where(
      'id',
      'in',
      spare.map((f) => f.id),
    )
    .execute();
  for (const f of spare) await ctx.storage.delete(tenantId, f.storage_key);
}

const usedCa = async (db: Db, tenantId: number) => (await db.selectFrom('ldap_config').select('ca_id').where('tenant_id', '=', tenantId).executeTakeFirst())?.ca_id ?? null;

/** Keeps the file the configuration uses and the newest few others. */
export const pruneUploads = async (ctx: Ctx, tenantId: number) => deleteUploads(ctx, tenantId, await usedCa(ctx.db, tenantId), SPARE_UPLOADS);

/** Every file of the tenant but the one in use (after a save) or all of them (LDAP closed: none in use). */
export const deleteSpareUploads = async (ctx: Ctx, tenantId: number) => deleteUploads(ctx, tenantId, await usedCa(ctx.db, tenantId), 0);

/** Whether a file is the tenant's. */
export const caExists = async (db: Db, tenantId: number, id: number) => !!(await db.selectFrom('ldap_file').select('id').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst());
