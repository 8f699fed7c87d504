import type { UserMessage } from '@hublink/contract';
import { useUser } from '../../session/user';

/** What the signed-in user may do with members (the server's guard enforces the same). */
export interface MemberRights {
  /** A main account (suffix, software login records). */
  main: boolean;
  create: boolean;
  edit: boolean;
  delete: boolean;
}

/**
 * A main account may do everything; a sub-account what its role grants (easylink.router create, edit,
 * delete) in the user message's `role`. Until the user message is loaded nothing is offered.
 */
export function memberRights(user: UserMessage | null): MemberRights {
  if (!user) return { main: false, create: false, edit: false, delete: false };
  if (user.ram !== 1) return { main: true, create: true, edit: true, delete: true };
  const role = user.role?.['easylink.router'];
  if (!role) return { main: false, create: true, edit: true, delete: true };
  return { main: false, create: role.create === 1, edit: role.edit === 1, delete: role.delete === 1 };
}

export const useMemberRights = () => memberRights(useUser());
