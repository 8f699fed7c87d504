import { type NetworkDetail, type NetworkMember, networkMembers } from '@hublink/contract';
import { useApiQuery } from '../../api/hooks';

/**
 * Every member of the network, for a dialog that picks among them. The detail holds only its page of
 * members on a big network (issue 34): the dialog then asks GET /network/member once it opens.
 */
export function useAllMembers(detail: NetworkDetail, open: boolean): { members: NetworkMember[]; loading: boolean } {
  const whole = detail.member.length >= detail.member_count;
  const list = useApiQuery(networkMembers, { network_number: detail.network_number }, { enabled: open && !whole });
  if (whole) return { members: detail.member, loading: false };
  return { members: list.data?.data ?? [], loading: list.isLoading };
}
