import type { Endpoint } from '@hublink/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApiMutation } from '../../api/hooks';

/**
 * What a change to members refreshes: every /router query (lists, quantity, pickers) and the network
 * screens, whose member counts and pickers show members too.
 */
export const MEMBER_AREA = ['/router/', '/network/'];

/** A POST of the members area; its success toast shows and the area's queries reload. */
export const useRouterMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: MEMBER_AREA });

/** Reloads the area's queries (after a bulk upload, whose call is not a mutation hook). */
export function useReloadMembers() {
  const client = useQueryClient();
  return useCallback(
    () => client.invalidateQueries({ predicate: (q) => MEMBER_AREA.some((p) => String(q.queryKey[0]).startsWith(p)) }),
    [client],
  );
}
