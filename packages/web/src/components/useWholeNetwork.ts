import { networkInfo, networkMembers, type NetworkDetail, type NetworkMember } from '@hublink/contract';
import { useApiQuery } from '../api/hooks';

/**
 * A network with every member, for the pages that edit them all (/network/edit, /network/pop_edit): the
 * network's own fields from the smallest page of /network/info and the members from /network/member.
 * The whole info answer also carries every link (3 MB for 5,000 members, issue 34); these pages show none.
 */
export function useWholeNetwork(networkNumber: string, enabled = networkNumber !== ''): { network?: NetworkDetail; members?: NetworkMember[] } {
  const info = useApiQuery(networkInfo, { network_number: networkNumber, member_page: 1, link_page: 1, page_size: 1 }, { enabled });
  const members = useApiQuery(networkMembers, { network_number: networkNumber }, { enabled });
  return { network: info.data?.data, members: members.data?.data };
}
