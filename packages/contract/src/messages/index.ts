/**
 * Every user-facing text of the spec, exactly as the spec writes it, plus our own where the spec is
 * silent; one file per area. M is all of them in one namespace: a key names one text in every area.
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
import { overviewMessages } from './overview';
import { apiTokenMessages } from './apiToken';
import { auditMessages } from './audit';
import { diagnosisMessages } from './diagnosis';
import { CM } from './clients';
import { deviceApprovalMessages } from './deviceApproval';
import { SM } from './selfService';

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
  ...overviewMessages,
  ...apiTokenMessages,
  ...auditMessages,
  ...diagnosisMessages,
  ...deviceApprovalMessages,
} as const;

export type MessageKey = keyof typeof M;

/** Areas whose texts travel with their own pages, not in M. */
export { CM, SM };

/** Fills `{n}`-style placeholders. */
export const fmt = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
