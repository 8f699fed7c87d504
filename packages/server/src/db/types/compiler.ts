import type { Generated } from 'kysely';

/** What the network compiler (`compiler/`) writes: member configurations, the per-network PKI and the POP relays' ports (the gateway writes `member_config`'s applied columns). */
export interface CompilerSchema {
  member_config: MemberConfigTable;
  network_pki: NetworkPkiTable;
  member_certificate: MemberCertificateTable;
  pop_relay_port: PopRelayPortTable;
}

/** A member's compiled configuration in a network (migration 0017); version grows when hash changes. */
export interface MemberConfigTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  version: number;
  /** sha256 (hex) of the canonical config and openvpn texts. */
  hash: string;
  /** JSON text of the structured configuration. */
  config: string;
  /** JSON text of the OpenVPN files by relative path. */
  openvpn: string;
  update_time: number;
  /** The version the device last said it applied, and its error if it failed (migration 0018). */
  applied_version: Generated<number>;
  applied_error: Generated<string>;
  /** When the device acknowledged applied_version (migration 0030); null before any acknowledgement. */
  applied_time: number | null;
}

/** A network's CA and CRL (migration 0012); the CA key sealed by core/secretBox.ts, never plaintext. */
export interface NetworkPkiTable {
  network_id: number;
  tenant_id: number;
  /** PEM */
  ca_cert: string;
  ca_key_sealed: string;
  /** The network's OpenVPN tls-crypt key, sealed (migration 0032); null in a row made before them until it is first needed. */
  tls_crypt_sealed: string | null;
  /** PEM (X509 CRL) */
  crl: string;
  create_time: number;
  update_time: number;
}

/** A certificate issued to a member in a network (migration 0012); its key sealed, never plaintext. */
export interface MemberCertificateTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  /** 'server' (a center) | 'client' (a point or software member) */
  role: string;
  common_name: string;
  /** Lowercase hex, unique in the network. */
  serial: string;
  /** PEM */
  cert: string;
  key_sealed: string;
  /** End of validity, epoch ms. */
  not_after: number;
  /** When the member left the network (epoch ms); null while the certificate is in force. */
  revoked_at: number | null;
  create_time: number;
}

/** One port of an area's relays (migration 0035, kept by the compiler): where it forwards. */
export interface PopRelayPortTable {
  id: Generated<number>;
  tenant_id: number;
  area_id: number;
  network_id: number;
  center_member_id: number;
  service: string;
  port: number;
  target_host: Generated<string>;
  target_port: Generated<number>;
}
