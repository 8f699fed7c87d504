/**
 * Every area's texts in one namespace, M: a key names one text in every area. A module that uses M
 * carries every area's texts (about 30 KB compressed): the console's sign-in path and shared modules use
 * BM and the area objects instead (see index.ts).
 */
import { commonMessages } from './common';
import { shellMessages } from './shell';
import { authMessages } from './auth';
import { accountMessages } from './account';
import { messageMessages } from './message';
import { announcementMessages } from './announcement';
import { serviceMessages } from './service';
import { ramMessages } from './ram';
import { routerMessages } from './router';
import { networkMessages } from './network';
import { networkSettingsUiMessages } from './networkSettingsUi';
import { legalMessages } from './legal';
import { mailMessages } from './mail';
import { networkSegmentsMessages } from './networkSegments';
import { popMessages } from './pop';
import { networkTicketMessages } from './networkTicket';
import { logsMessages } from './logs';
import { saasMessages } from './saas';
import { authSourceMessages } from './authSource';
import { monitorMessages } from './monitor';
import { ldapMessages } from './ldap';
import { ticketMessages } from './ticket';
import { documentMessages } from './document';
import { networkHistoryMessages } from './networkHistory';
import { networkCodeMessages } from './networkCode';
import { networkPreviewMessages } from './networkPreview';
import { overviewMessages } from './overview';
import { apiTokenMessages } from './apiToken';
import { auditMessages } from './audit';
import { diagnosisMessages } from './diagnosis';
import { deviceApprovalMessages } from './deviceApproval';
import { mcpMessages } from './mcp';

export const M = {
  ...commonMessages,
  ...shellMessages,
  ...authMessages,
  ...accountMessages,
  ...messageMessages,
  ...announcementMessages,
  ...serviceMessages,
  ...ramMessages,
  ...routerMessages,
  ...networkMessages,
  ...networkSettingsUiMessages,
  ...legalMessages,
  ...mailMessages,
  ...networkSegmentsMessages,
  ...popMessages,
  ...networkTicketMessages,
  ...logsMessages,
  ...saasMessages,
  ...authSourceMessages,
  ...monitorMessages,
  ...ldapMessages,
  ...ticketMessages,
  ...documentMessages,
  ...networkHistoryMessages,
  ...networkPreviewMessages,
  ...networkCodeMessages,
  ...overviewMessages,
  ...apiTokenMessages,
  ...auditMessages,
  ...diagnosisMessages,
  ...deviceApprovalMessages,
  ...mcpMessages,
} as const;

export type MessageKey = keyof typeof M;
