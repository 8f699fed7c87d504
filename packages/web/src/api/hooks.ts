import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { CODE, type BodyOf, type DataOf, type Endpoint, type Envelope, type QueryOf } from '@hublink/contract';
import { call, type CallOptions } from './client';

/** Thrown inside TanStack Query so a non-200 envelope counts as an error there. */
export class EnvelopeError extends Error {
  constructor(readonly envelope: Envelope) {
    super(envelope.msg);
  }
}

/** Reads one GET endpoint; the key is its path plus the query, so invalidating by path refreshes it. */
export function useApiQuery<E extends Endpoint>(
  endpoint: E,
  query?: QueryOf<E>,
  opts: CallOptions & Omit<UseQueryOptions<Envelope<DataOf<E>>, EnvelopeError>, 'queryKey' | 'queryFn'> = {},
) {
  const { timeoutMs, on204, quiet, successToast, ...queryOpts } = opts;
  return useQuery<Envelope<DataOf<E>>, EnvelopeError>({
    queryKey: [endpoint.path, query ?? {}],
    queryFn: async () => {
      const env = await call(endpoint, { query }, { timeoutMs, on204, quiet, successToast });
      if (env.code !== CODE.ok) throw new EnvelopeError(env);
      return env;
    },
    ...queryOpts,
  });
}

/** Calls one POST endpoint; on success it invalidates the given path prefixes. */
export function useApiMutation<E extends Endpoint>(endpoint: E, opts: CallOptions & { invalidates?: string[] } = {}) {
  const client = useQueryClient();
  const { invalidates = [], ...callOpts } = opts;
  return useMutation<Envelope<DataOf<E>>, EnvelopeError, BodyOf<E>>({
    mutationFn: (body) => call(endpoint, { body }, callOpts),
    onSuccess: async (env) => {
      if (env.code !== CODE.ok) return;
      await Promise.all(
        invalidates.map((prefix) => client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(prefix) })),
      );
    },
  });
}
