/** Envelope codes of DESIGN.md §4 and spec 1 §8. */
export const CODE = {
  ok: 200,
  notFound: 204,
  flow401: 401,
  flow403: 403,
  forbidden: 403,
  invalid: 422,
  furtherAction: 423,
  tooMany: 429,
  internal: 500,
  tokenInvalid: 2001,
  tokenExpired: 2002,
  accountDisabled: 2003,
} as const;

export type Code = (typeof CODE)[keyof typeof CODE];

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
  count?: number;
}

/** HTTP status for an envelope code (DESIGN.md §4). */
export function httpStatusOf(code: number): number {
  if (code >= 2000) return 401;
  if (code === CODE.tooMany) return 429;
  if (code === CODE.internal) return 500;
  return 200;
}
