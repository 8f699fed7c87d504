import { describe, expect, it } from 'vitest';
import { accountMessages } from './account';
import { announcementMessages } from './announcement';
import { authMessages } from './auth';
import { commonMessages } from './common';
import { M } from './index';
import { legalMessages } from './legal';
import { mailMessages } from './mail';
import { messageMessages } from './message';
import { networkMessages } from './network';
import { networkSettingsUiMessages } from './networkSettingsUi';
import { popMessages } from './pop';
import { networkTicketMessages } from './networkTicket';
import { ramMessages } from './ram';
import { routerMessages } from './router';
import { serviceMessages } from './service';
import { shellMessages } from './shell';
import { networkSegmentsMessages } from './networkSegments';
import { logsMessages } from './logs';
import { saasMessages } from './saas';
import { authSourceMessages } from './authSource';
import { monitorMessages } from './monitor';
import { ldapMessages } from './ldap';
import { ticketMessages } from './ticket';
import { documentMessages } from './document';
import { apiTokenMessages } from './apiToken';
import { networkHistoryMessages } from './networkHistory';
import { networkPreviewMessages } from './networkPreview';
import { networkCodeMessages } from './networkCode';
import { overviewMessages } from './overview';
import { auditMessages } from './audit';
import { diagnosisMessages } from './diagnosis';
import { deviceApprovalMessages } from './deviceApproval';
import { mcpMessages } from './mcp';
import { CM } from './clients';
import { SM } from './selfService';

const AREAS: Record<string, Record<string, string>> = {
  common: commonMessages,
  shell: shellMessages,
  auth: authMessages,
  account: accountMessages,
  message: messageMessages,
  announcement: announcementMessages,
  service: serviceMessages,
  ram: ramMessages,
  router: routerMessages,
  network: networkMessages,
  networkSettingsUi: networkSettingsUiMessages,
  legal: legalMessages,
  mail: mailMessages,
  networkSegments: networkSegmentsMessages,
  pop: popMessages,
  networkTicket: networkTicketMessages,
  logs: logsMessages,
  saas: saasMessages,
  authSource: authSourceMessages,
  monitor: monitorMessages,
  ldap: ldapMessages,
  ticket: ticketMessages,
  document: documentMessages,
  apiToken: apiTokenMessages,
  networkHistory: networkHistoryMessages,
  networkPreview: networkPreviewMessages,
  networkCode: networkCodeMessages,
  overview: overviewMessages,
  audit: auditMessages,
  diagnosis: diagnosisMessages,
  deviceApproval: deviceApprovalMessages,
  mcp: mcpMessages,
};
/** Areas kept out of M (they travel with their pages). */
const PAGE_AREAS: Record<string, Record<string, string>> = { clients: CM, selfService: SM };

describe('messages, one file per area', () => {
  it('names each text in one area only, so no area silently replaces another area’s text in M', () => {
    const owners = new Map<string, string[]>();
    for (const [area, texts] of Object.entries({ ...AREAS, ...PAGE_AREAS })) for (const key of Object.keys(texts)) owners.set(key, [...(owners.get(key) ?? []), area]);
    expect([...owners].filter(([, areas]) => areas.length > 1)).toEqual([]);
  });

  it('puts every text of every area into M', () => {
    const all = Object.values(AREAS).reduce((sum, texts) => sum + Object.keys(texts).length, 0);
    expect(Object.keys(M)).toHaveLength(all);
  });
});
