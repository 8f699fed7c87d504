import type { UserMessage } from '@hublink/contract';
import { useUser } from '../../session/user';

/**
 * What the signed-in user may do with networks. A main account may do everything; a sub-account what
 * its role grants (the user message's `role`), and no create when the role lists networks (spec 1 §5,
 * spec 2 §6). The server's guard enforces the same.
 */
export interface NetworkRights {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

export function networkRights(user: UserMessage | null): NetworkRights {
  const role = user?.role;
  if (!user || user.ram !== 1 || !role) return { create: true, edit: true, delete: true };
  const n = role['easylink.network'];
  return { create: n.create === 1 && n.network.length === 0, edit: n.edit === 1, delete: n.delete === 1 };
}

export const useNetworkRights = () => networkRights(useUser());
