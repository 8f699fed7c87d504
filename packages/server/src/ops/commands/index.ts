import type { OpsCommand } from '../command';
import { announcementCommands } from './announcements';
import { brandCommands } from './brands';
import { docCommands } from './docs';
import { messageCommands } from './messages';
import { networkCommands } from './networks';
import { orderCommands } from './orders';
import { popCommands } from './pops';
import { releaseCommands } from './releases';
import { saasCommands } from './saas';
import { serviceCommands } from './services';
import { tenantCommands } from './tenants';
import { ticketCommands } from './tickets';

/** Every `hublink ops` command, in the order the usage lists them. */
export const OPS_COMMANDS: OpsCommand[] = [
  ...tenantCommands,
  ...brandCommands,
  ...serviceCommands,
  ...popCommands,
  ...announcementCommands,
  ...messageCommands,
  ...ticketCommands,
  ...orderCommands,
  ...networkCommands,
  ...saasCommands,
  ...releaseCommands,
  ...docCommands,
];
