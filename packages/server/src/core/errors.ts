import { CODE, M, type Answer, type PagedAnswer } from '@hublink/contract';

/** A refusal the caller can act on: an envelope code and a message (spec 1 §8). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalid = (msg: string) => new ApiError(CODE.invalid, msg);
export const notFound = (msg: string = M.notFound) => new ApiError(CODE.notFound, msg);
export const forbidden = (msg: string) => new ApiError(CODE.forbidden, msg);
export const tooMany = (msg: string = M.tooManyRequests) => new ApiError(CODE.tooMany, msg);

/** A successful answer with its data (null for none); a paged list adds its total. */
export function ok<T>(data: T, msg?: string): Answer<T>;
export function ok<T>(data: T, msg: string, count: number): PagedAnswer<T>;
export function ok<T>(data: T, msg = 'success', count?: number): Answer<T> | PagedAnswer<T> {
  return count === undefined ? { code: CODE.ok, msg, data } : { code: CODE.ok, msg, data, count };
}
