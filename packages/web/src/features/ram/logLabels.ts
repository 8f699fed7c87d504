import { BM, ramMessages } from '@hublink/contract';

/** The areas of the API (first path segment) as the log dialog names them. */
const AREAS: Record<string, string> = {
  login: ramMessages.logAreaLogin,
  account: ramMessages.logAreaAccount,
  ram: ramMessages.logAreaRam,
  router: ramMessages.logAreaRouter,
  network: ramMessages.logAreaNetwork,
  monitor: ramMessages.logAreaMonitor,
  contacts: ramMessages.logAreaContacts,
  webhook: ramMessages.logAreaWebhook,
  ticket: ramMessages.logAreaTicket,
  ldap: ramMessages.logAreaLdap,
  auth_source: ramMessages.logAreaAuthSource,
  saas: ramMessages.logAreaSaas,
  message: ramMessages.logAreaMessage,
  verify: ramMessages.logAreaVerify,
};

/** The common calls; any other shows as the API names it. */
const ACTIONS: Record<string, string> = {
  create: ramMessages.permCreate,
  add: ramMessages.permCreate,
  edit: ramMessages.permEdit,
  delete: ramMessages.permDelete,
  logout: BM.logoutAction,
  password: BM.changePassword,
};

export const areaLabel = (mode: string) => AREAS[mode] ?? mode;
export const actionLabel = (action: string) => ACTIONS[action] ?? action;
