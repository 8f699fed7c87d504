import { M } from '@hublink/contract';

/** The areas of the API (first path segment) as the log dialog names them. */
const AREAS: Record<string, string> = {
  login: M.logAreaLogin,
  account: M.logAreaAccount,
  ram: M.logAreaRam,
  router: M.logAreaRouter,
  network: M.logAreaNetwork,
  monitor: M.logAreaMonitor,
  contacts: M.logAreaContacts,
  webhook: M.logAreaWebhook,
  ticket: M.logAreaTicket,
  ldap: M.logAreaLdap,
  auth_source: M.logAreaAuthSource,
  saas: M.logAreaSaas,
  message: M.logAreaMessage,
  verify: M.logAreaVerify,
};

/** The common calls; any other shows as the API names it. */
const ACTIONS: Record<string, string> = {
  create: M.permCreate,
  add: M.permCreate,
  edit: M.permEdit,
  delete: M.permDelete,
  logout: M.logoutAction,
  password: M.changePassword,
};

export const areaLabel = (mode: string) => AREAS[mode] ?? mode;
export const actionLabel = (action: string) => ACTIONS[action] ?? action;
