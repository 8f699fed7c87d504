import type { UserMessage } from '@hublink/contract';
import { useUser } from '../../session/user';

/**
 * Whether the user may change devices (note, bandwidth): a main account, or a sub-account whose role
 * grants easylink.router edit; the server's guard enforces the same. Nothing until the user is loaded.
 */
export function canEditDevices(user: UserMessage | null): boolean {
  if (!user) return false;
  if (user.ram !== 1) return true;
  const role = user.role?.['easylink.router'];
  return !role || role.edit === 1;
}

export const useCanEditDevices = () => canEditDevices(useUser());
