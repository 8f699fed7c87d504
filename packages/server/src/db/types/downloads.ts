import type { Generated } from 'kysely';

/** Client releases: the download module owns them. */
export interface DownloadsSchema {
  client_release: ClientReleaseTable;
}

/** A client release the operator published: a package in storage (tenant 0) or a link. */
export interface ClientReleaseTable {
  id: Generated<number>;
  platform: string;
  panel: Generated<string>;
  arch: Generated<string>;
  version: string;
  notes: string;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  url: string | null;
  create_time: number;
}
