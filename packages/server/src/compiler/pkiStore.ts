import type { SecretBox } from '../core/secretBox';
import type { Db } from '../db/connect';
import { createCrl, createNetworkCa, hasRoleUsages, issueMemberCertificate, PKI_VALIDITY, PkiError, type CaMaterial, type MemberRole } from './pki';
import { createTlsCryptKey } from './tlsCrypt';

/**
 * The per-network PKI kept in the database (tables network_pki and member_certificate, migration 0012;
 * the network's tls-crypt key, migration 0032). Private keys are sealed with the secret box before they
 * are written and opened only here; a row never holds a key in plaintext. Each sealed key is bound to
 * its row (the box's context), so a sealed key copied into another row does not open. Every query is
 * scoped by tenant.
 */

const DAY_MS = 24 * 3600 * 1000;
const caContext = (networkId: number) => `network_pki:${networkId}`;
const tlsCryptContext = (networkId: number) => `network_pki:${networkId}:tls-crypt`;
const certContext = (networkId: number, serial: string) => `member_certificate:${networkId}:${serial}`;

export interface NetworkCa {
  networkId: number;
  caCertPem: string;
  crlPem: string;
  /** Whether this call made the CA. */
  created: boolean;
}

/**
 * The network's CA, made (with an empty CRL and the network's tls-crypt key) the first time it is asked
 * for; a CA made before tls-crypt keys existed gets its key here. Two callers at once get the same CA:
 * the second insert yields to the first and both read the row that won.
 */
export async function ensureNetworkCa(db: Db, box: SecretBox, tenantId: number, networkId: number, networkNumber: string, now: Date): Promise<NetworkCa> {
  const existing = await readCa(db, tenantId, networkId);
  if (existing) {
    if (existing.tls_crypt_sealed === null) await addTlsCryptKey(db, box, tenantId, networkId);
    return { networkId, caCertPem: existing.ca_cert, crlPem: existing.crl, created: false };
  }

  const network = await db.selectFrom('network').select('id').where('id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!network) throw new PkiError(`network ${networkId} is not one of tenant ${tenantId}'s`);

  const ca = await createNetworkCa(networkNumber, now);
  const crl = await createCrl(ca, [], now);
  const inserted = await db
    .insertInto('network_pki')
    .values({
      network_id: networkId,
      tenant_id: tenantId,
      ca_cert: ca.certPem,
      ca_key_sealed: box.seal(ca.keyPem, caContext(networkId)),
      tls_crypt_sealed: box.seal(createTlsCryptKey(), tlsCryptContext(networkId)),
      crl,
      create_time: now.getTime(),
      update_time: now.getTime(),
    })
    .onConflict((oc) => oc.column('network_id').doNothing())
    .executeTakeFirst();
  const row = await readCa(db, tenantId, networkId);
  if (!row) throw new PkiError(`network ${networkId}'s CA vanished as it was made`);
  return { networkId, caCertPem: row.ca_cert, crlPem: row.crl, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/**
 * A tls-crypt key for a network whose PKI row has none (made by a release before them). Only a row
 * still without one is written, so of two callers at once the first one's key stays. update_time is
 * left alone: it says when the CRL was built.
 */
async function addTlsCryptKey(db: Db, box: SecretBox, tenantId: number, networkId: number): Promise<void> {
  await db
    .updateTable('network_pki')
    .set({ tls_crypt_sealed: box.seal(createTlsCryptKey(), tlsCryptContext(networkId)) })
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .where('tls_crypt_sealed', 'is', null)
    .execute();
}

function readCa(db: Db, tenantId: number, networkId: number) {
  return db.selectFrom('network_pki').selectAll().where('network_id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirst();
}

function openCa(box: SecretBox, row: { network_id: number; ca_cert: string; ca_key_sealed: string }): CaMaterial {
  return { certPem: row.ca_cert, keyPem: box.openText(row.ca_key_sealed, caContext(row.network_id)) };
}

export interface MemberCertificateRequest {
  tenantId: number;
  networkId: number;
  memberId: number;
  /** The member's name as the certificate's common name. */
  commonName: string;
  /** server: a center; client: a point or a software member. */
  role: MemberRole;
  now: Date;
  /** Renew when the current certificate ends within this many days (the renewal job's window). */
  windowDays?: number;
}

export interface MemberCertificate {
  id: number;
  serial: string;
  certPem: string;
  /** PKCS#8 PEM, opened for the caller (the member's rendered configuration); never stored like this. */
  keyPem: string;
  notAfter: Date;
  /** Whether this call issued it. */
  issued: boolean;
}

/**
 * The member's certificate in the network: its newest one in force when that has the asked role and
 * name, carries the role's key usages and does not end within the window; otherwise a new one from the
 * network's CA (which must exist: ensureNetworkCa first). The older certificate is left in force until
 * it ends or the member leaves, so a device still using it keeps working until it has its new
 * configuration.
 */
export async function ensureMemberCertificate(db: Db, box: SecretBox, req: MemberCertificateRequest): Promise<MemberCertificate> {
  const windowDays = req.windowDays ?? PKI_VALIDITY.renewalWindowDays;
  const current = await db
    .selectFrom('member_certificate')
    .selectAll()
    .where('tenant_id', '=', req.tenantId)
    .where('network_id', '=', req.networkId)
    .where('member_id', '=', req.memberId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (
    current &&
    current.role === req.role &&
    current.common_name === req.commonName &&
    current.not_after - req.now.getTime() > windowDays * DAY_MS &&
    // Only a center's certificate is read: those issued before centers got clientAuth are replaced.
    (req.role !== 'server' || hasRoleUsages(current.cert, 'server'))
  ) {
    return {
      id: current.id,
      serial: current.serial,
      certPem: current.cert,
      keyPem: box.openText(current.key_sealed, certContext(req.networkId, current.serial)),
      notAfter: new Date(current.not_after),
      issued: false,
    };
  }

  const caRow = await readCa(db, req.tenantId, req.networkId);
  if (!caRow) throw new PkiError(`network ${req.networkId} has no CA yet`);
  const cert = await issueMemberCertificate(openCa(box, caRow), { commonName: req.commonName, role: req.role, now: req.now });
  const row = await db
    .insertInto('member_certificate')
    .values({
      tenant_id: req.tenantId,
      network_id: req.networkId,
      member_id: req.memberId,
      role: req.role,
      common_name: req.commonName,
      serial: cert.serial,
      cert: cert.certPem,
      key_sealed: box.seal(cert.keyPem, certContext(req.networkId, cert.serial)),
      not_after: cert.notAfter.getTime(),
      revoked_at: null,
      create_time: req.now.getTime(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, serial: cert.serial, certPem: cert.certPem, keyPem: cert.keyPem, notAfter: cert.notAfter, issued: true };
}

export interface Revocation {
  /** Serials revoked by this call. */
  serials: string[];
  /** The network's CRL after the call (null when the network has no CA). */
  crlPem: string | null;
}

/**
 * A member left the network: every certificate of it there still in force is revoked (revoked_at = now)
 * and the network's CRL is rebuilt and stored in the same transaction. The network's PKI row is
 * written first, so two revocations in one network take turns and neither CRL misses the other's serial.
 */
export async function revokeMemberCertificate(db: Db, box: SecretBox, tenantId: number, networkId: number, memberId: number, now: Date): Promise<Revocation> {
  return revokeCertificates(db, box, tenantId, networkId, [{ memberId }], now);
}

/** Which of a member's certificates in force to revoke: all of them, all but those of one role, or one serial. */
export interface RevokeTarget {
  memberId: number;
  /** Keep the certificates of this role (a member whose position changed keeps its new one). */
  exceptRole?: MemberRole;
  /** Only this certificate. */
  serial?: string;
}

/**
 * revokeMemberCertificate for several members or narrower targets at once: one transaction, one CRL.
 * Given a transaction (these and refreshCrl), they run in it: the caller's locks come first.
 */
export async function revokeCertificates(db: Db, box: SecretBox, tenantId: number, networkId: number, targets: readonly RevokeTarget[], now: Date): Promise<Revocation> {
  return inTransaction(db, async (trx) => {
    if (!(await lockPki(trx, tenantId, networkId))) return { serials: [], crlPem: null };
    const serials: string[] = [];
    for (const target of targets) {
      let update = trx
        .updateTable('member_certificate')
        .set({ revoked_at: now.getTime() })
        .where('tenant_id', '=', tenantId)
        .where('network_id', '=', networkId)
        .where('member_id', '=', target.memberId)
        .where('revoked_at', 'is', null);
      if (target.exceptRole) update = update.where('role', '<>', target.exceptRole);
      if (target.serial) update = update.where('serial', '=', target.serial);
      serials.push(...(await update.returning('serial').execute()).map((r) => r.serial));
    }
    const caRow = await readCa(trx, tenantId, networkId);
    if (serials.length === 0) return { serials, crlPem: caRow!.crl };
    return { serials, crlPem: await rebuildCrl(trx, box, caRow!, now) };
  });
}

/** Rebuilds the network's CRL (the renewal job, before the stored one reaches its next update). */
export async function refreshCrl(db: Db, box: SecretBox, tenantId: number, networkId: number, now: Date): Promise<string | null> {
  return inTransaction(db, async (trx) => {
    if (!(await lockPki(trx, tenantId, networkId))) return null;
    return rebuildCrl(trx, box, (await readCa(trx, tenantId, networkId))!, now);
  });
}

/** Runs `work` in the caller's transaction when given one (one that holds the tenant lock), else in a new one. */
function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Writes the PKI row without changing it: a row lock on PostgreSQL, the write lock on SQLite. */
async function lockPki(trx: Db, tenantId: number, networkId: number): Promise<boolean> {
  const r = await trx
    .updateTable('network_pki')
    .set((eb) => ({ update_time: eb.ref('update_time') }))
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The CRL of every revoked certificate that has not ended yet (an ended one is refused for its dates
 * anyway), stored with update_time = now: update_time says when the CRL was built.
 */
async function rebuildCrl(trx: Db, box: SecretBox, caRow: { tenant_id: number; network_id: number; ca_cert: string; ca_key_sealed: string }, now: Date): Promise<string> {
  const rows = await trx
    .selectFrom('member_certificate')
    .select(['serial', 'revoked_at'])
    .where('tenant_id', '=', caRow.tenant_id)
    .where('network_id', '=', caRow.network_id)
    .where('revoked_at', 'is not', null)
    .where('not_after', '>', now.getTime())
    .orderBy('id')
    .execute();
  const crl = await createCrl(
    openCa(box, caRow),
    rows.map((r) => ({ serial: r.serial, revokedAt: new Date(r.revoked_at!) })),
    now,
  );
  await trx.updateTable('network_pki').set({ crl, update_time: now.getTime() }).where('network_id', '=', caRow.network_id).where('tenant_id', '=', caRow.tenant_id).execute();
  return crl;
}

export interface DueCertificate {
  id: number;
  tenantId: number;
  networkId: number;
  memberId: number;
  role: MemberRole;
  commonName: string;
  serial: string;
  notAfter: Date;
}

export interface DueForRenewal {
  /** Members' newest certificates in force that end within the window (or have ended). */
  certificates: DueCertificate[];
  /** Networks whose CRL reaches its next update within the window. */
  crls: { tenantId: number; networkId: number }[];
}

/**
 * What the renewal job has to do at `now`, across tenants: the certificates to replace (each member's
 * newest certificate in force in a network, when it ends within windowDays) and the CRLs to rebuild
 * (built more than crlDays - windowDays ago, so within windowDays of their next update).
 */
export async function dueForRenewal(db: Db, now: Date, windowDays: number = PKI_VALIDITY.renewalWindowDays): Promise<DueForRenewal> {
  const certificates = await db
    .selectFrom('member_certificate as c')
    .select(['c.id', 'c.tenant_id', 'c.network_id', 'c.member_id', 'c.role', 'c.common_name', 'c.serial', 'c.not_after'])
    .where('c.revoked_at', 'is', null)
    .where('c.not_after', '<=', now.getTime() + windowDays * DAY_MS)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('member_certificate as n')
            .select('n.id')
            .whereRef('n.network_id', '=', 'c.network_id')
            .whereRef('n.member_id', '=', 'c.member_id')
            .where('n.revoked_at', 'is', null)
            .whereRef('n.id', '>', 'c.id'),
        ),
      ),
    )
    .orderBy('c.not_after')
    .orderBy('c.id')
    .execute();
  const crls = await db
    .selectFrom('network_pki')
    .select(['tenant_id', 'network_id'])
    .where('update_time', '<=', now.getTime() - (PKI_VALIDITY.crlDays - windowDays) * DAY_MS)
    .orderBy('network_id')
    .execute();
  return {
    certificates: certificates.map((c) => ({
      id: c.id,
      tenantId: c.tenant_id,
      networkId: c.network_id,
      memberId: c.member_id,
      role: c.role as MemberRole,
      commonName: c.common_name,
      serial: c.serial,
      notAfter: new Date(c.not_after),
    })),
    crls: crls.map((r) => ({ tenantId: r.tenant_id, networkId: r.network_id })),
  };
}

/** The files a member's device needs beside its OpenVPN config (its key opened), or null while it has no certificate. */
export interface DeviceFiles {
  ca: string;
  cert: string;
  key: string;
  /** For a center (server role), which checks the points' certificates against it. */
  crl: string | null;
  /** The network's tls-crypt key, the same for every member; null until a network made before them gets one (ensureNetworkCa). */
  tlsCrypt: string | null;
}

export async function deviceFilesOf(db: Db, box: SecretBox, tenantId: number, networkId: number, memberId: number): Promise<DeviceFiles | null> {
  return (await deviceFilesOfMembers(db, box, tenantId, networkId, [memberId])).get(memberId) ?? null;
}

/** The device files of many members of one network in one read, each from its newest unrevoked certificate (a member without one is absent). */
export async function deviceFilesOfMembers(db: Db, box: SecretBox, tenantId: number, networkId: number, memberIds: readonly number[]): Promise<Map<number, DeviceFiles>> {
  const out = new Map<number, DeviceFiles>();
  if (memberIds.length === 0) return out;
  const rows = await db
    .selectFrom('member_certificate as c')
    .innerJoin('network_pki as p', 'p.network_id', 'c.network_id')
    .select(['c.member_id', 'c.serial', 'c.cert', 'c.key_sealed', 'c.role', 'p.ca_cert', 'p.crl', 'p.tls_crypt_sealed'])
    .where('c.tenant_id', '=', tenantId)
    .where('c.network_id', '=', networkId)
    .where('c.member_id', 'in', memberIds)
    .where('c.revoked_at', 'is', null)
    .where('p.tenant_id', '=', tenantId)
    .orderBy('c.id', 'desc')
    .execute();
  // Every row carries the network's one key: opened once.
  const sealedTlsCrypt = rows[0]?.tls_crypt_sealed ?? null;
  const tlsCrypt = sealedTlsCrypt === null ? null : box.openText(sealedTlsCrypt, tlsCryptContext(networkId));
  for (const row of rows) {
    if (out.has(row.member_id)) continue;
    out.set(row.member_id, { ca: row.ca_cert, cert: row.cert, key: box.openText(row.key_sealed, certContext(networkId, row.serial)), crl: row.role === 'server' ? row.crl : null, tlsCrypt });
  }
  return out;
}
