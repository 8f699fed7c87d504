import { z } from 'zod';

/** Role permissions of spec 1 §3 (the flags a role grants a sub-account). */
export const PERMISSIONS = [
  'easylink.router.create',
  'easylink.router.edit',
  'easylink.router.delete',
  'easylink.network.create',
  'easylink.network.edit',
  'easylink.network.delete',
  'monitor.view',
  'monitor.create',
  'monitor.edit',
  'monitor.delete',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Who may call an endpoint. Every endpoint states one, so no route is reachable by accident:
 * - public: no token (captcha, login, register, recovery, email validation, downloads, help)
 * - user: any signed-in account, main or sub-account (reading and self-service)
 * - main: main accounts only (sub-accounts, roles, account info, software login records)
 * - a permission: main accounts, and sub-accounts whose role grants it
 * - member: a member's self-service session (issue 30: its own profiles), never an account's token
 */
export type Access = 'public' | 'user' | 'main' | 'member' | Permission;

/** Where a call lives unless its endpoint names another base (DESIGN.md §4). */
export const API_BASE_PATH = '/api/v1';

export interface Endpoint {
  path: string;
  /**
   * The mount point of a call outside API_BASE_PATH: spec 3 §7's downloads live at
   * `{external}/api/download/*`. The module serving it mounts its routes there (Module.prefix).
   */
  base?: string;
  method: 'GET' | 'POST';
  access: Access;
  /** The call names a network (network_number); a role's network list applies. */
  networkScoped?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /**
   * What a successful call answers: the schema of the envelope's `data` (noData when it has none),
   * for a download the file, for a step a browser opens a redirect (refusals of a download or a
   * redirect are envelopes all the same). A download that names a redirect too answers either: the
   * file, or a 302 to where the file is kept (a client release published as a link).
   */
  response: z.ZodType | FileResponse | RedirectResponse;
  /** A paged list: a successful answer carries `count`, the total of the list. */
  paged?: true;
  /**
   * The sign-out: a token that a refresh racing this call has just replaced (revoked, its sign-in still
   * on) is still accepted, so the sign-out ends the chain the refresh continued.
   */
  endsChain?: true;
  /**
   * A POST that changes nothing (a preview: its body is a whole call, too structured for a query):
   * no audit entry, as for a read.
   */
  changesNothing?: true;
}

/** `data` of a call that answers none: the envelope carries `data: null`. */
export const noData = z.null();

/** A download's answer: a file of this content type instead of an envelope. */
export interface FileResponse {
  file: string;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const xlsxFile: FileResponse = { file: XLSX_TYPE };

export const isFileResponse = (r: Endpoint['response']): r is FileResponse => 'file' in r && typeof r.file === 'string';

/**
 * A step of a sign-in that a browser opens (an OAuth authorize or callback): success is HTTP 302 to
 * the URL `redirect` describes, not an envelope.
 */
export interface RedirectResponse {
  redirect: string;
}

export const isRedirectResponse = (r: Endpoint['response']): r is RedirectResponse => 'redirect' in r && typeof r.redirect === 'string';

export const defineEndpoint = <const E extends Endpoint>(e: E): E => e;

/** The URL path of a call: its base (API_BASE_PATH by default) and its path. */
export const endpointUrl = (e: Pick<Endpoint, 'path' | 'base'>): string => (e.base ?? API_BASE_PATH) + e.path;

export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;
export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;
/** `data` of a successful answer; never for a download or a redirect, which answer no envelope (unknown for any endpoint at all). */
export type DataOf<E extends Endpoint> = E['response'] extends FileResponse | RedirectResponse
  ? never
  : E['response'] extends z.ZodType
    ? z.output<E['response']>
    : unknown;

/** A successful envelope: code 200 and the data. */
export interface Answer<T> {
  code: number;
  msg: string;
  data: T;
}

/** A successful envelope of a paged list: a page of rows and the list's total. */
export interface PagedAnswer<T> extends Answer<T> {
  count: number;
}

/** The successful envelope of a call: `count` on paged lists, and only there. */
export type AnswerOf<E extends Endpoint> = E['paged'] extends true ? PagedAnswer<DataOf<E>> : Answer<DataOf<E>> & { count?: never };
