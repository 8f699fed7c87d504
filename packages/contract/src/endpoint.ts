import type { z } from 'zod';

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
 */
export type Access = 'public' | 'user' | 'main' | Permission;

export interface Endpoint {
  path: string;
  method: 'GET' | 'POST';
  access: Access;
  /** The call names a network (network_number); a role's network list applies. */
  networkScoped?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Schema of `data` in a successful answer. */
  response?: z.ZodType;
}

export const defineEndpoint = <const E extends Endpoint>(e: E): E => e;

export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;
export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;
export type DataOf<E extends Endpoint> = E['response'] extends z.ZodType ? z.output<E['response']> : unknown;
