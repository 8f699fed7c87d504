import { CODE, M, type Envelope } from '@hublink/contract';

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

export function ok<T>(data?: T, msg = 'success', count?: number): Envelope<T> {
  const env: Envelope<T> = { code: CODE.ok, msg };
  if (data !== undefined) env.data = data;
  if (count !== undefined) env.count = count;
  return env;
}
