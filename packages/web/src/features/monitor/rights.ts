import type { UserMessage } from '@hublink/contract';
import { useUser } from '../../session/user';

/**
 * What the signed-in user may do with monitoring (spec 1 §5: create means enable, edit means settings,
 * delete means disable; view is always on). The server's guard enforces the same.
 */
export interface MonitorRights {
  enable: boolean;
  edit: boolean;
  disable: boolean;
}

export function monitorRights(user: UserMessage | null): MonitorRights {
  if (!user) return { enable: false, edit: false, disable: false };
  const role = user.ram === 1 ? user.role?.monitor : undefined;
  if (!role) return { enable: true, edit: true, disable: true };
  return { enable: role.create === 1, edit: role.edit === 1, disable: role.delete === 1 };
}

export const useMonitorRights = () => monitorRights(useUser());
