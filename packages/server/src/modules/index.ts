import type { Module } from '../core/module';
import { accountModule } from './account';
import { announcementModule } from './announcement';
import { authModule } from './auth';
import { authSourceModule } from './auth-source';
import { devModule } from './dev';
import { documentModule } from './document';
import { downloadModule } from './download';
import { ldapModule } from './ldap';
import { logsModule } from './logs';
import { messageModule } from './message';
import { monitorModule } from './monitor';
import { networkModule } from './network';
import { popModule } from './pop';
import { networkTicketModule } from './network-ticket';
import { ramModule } from './ram';
import { ramRoleModule } from './ram-role';
import { routerModule } from './router';
import { saasModule } from './saas';
import { serviceModule } from './service';
import { siteModule } from './site';
import { ticketModule } from './ticket';
import { pkiModule } from '../compiler/pkiModule';
import { compilerModule } from '../compiler';
import { gatewayModule } from '../gateway';
import { selfServiceModule } from '../selfService';
import { overviewModule } from './overview';
import { apiTokenModule } from './api-token';
import { auditModule } from './audit';
import { deviceApprovalModule } from './device-approval';

/** Every module of the server, in start order (app.ts stops them in reverse); the CLI uses the same list. */
export const MODULES: Module[] = [
  siteModule,
  authModule,
  accountModule,
  announcementModule,
  messageModule,
  serviceModule,
  ramModule,
  ramRoleModule,
  routerModule,
  authSourceModule,
  saasModule,
  ldapModule,
  networkModule,
  popModule,
  networkTicketModule,
  logsModule,
  monitorModule,
  ticketModule,
  documentModule,
  downloadModule,
  devModule,
  // The compiler's PKI (not a module folder): it follows the network and member events.
  pkiModule,
  compilerModule,
  // The device gateway (not a module folder): sessions, deliveries to devices, live state.
  gatewayModule,
  // A member's self-service page (not a module folder): the compiler's profiles, the gateway's sign-in rules.
  selfServiceModule,
  overviewModule,
  apiTokenModule,
  deviceApprovalModule,
  // The audit trail (issue 18): entries from every module's operation.performed events.
  auditModule,
];
