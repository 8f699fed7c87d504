/**
 * Every user-facing text of the spec, exactly as the spec writes it, plus our own where the spec is
 * silent; one file per area, each an object of its own (`networkMessages`, ...). BM is the texts every
 * route may show (common, the console's frame, signing in); a module imports BM and its area's object,
 * so a route carries only the texts it shows. M (all.ts) is every area in one namespace, for the
 * server only (packages/web/src/messagesByArea.test.ts keeps it out of the console).
 *
 * Only re-exports here: the package has no side effects, so a bundle takes only the files whose
 * texts it uses.
 */
export { M, type MessageKey } from './all';
export { BM } from './base';
export { fmt } from './fmt';
export { commonMessages } from './common';
export { shellMessages } from './shell';
export { authMessages } from './auth';
export { accountMessages } from './account';
export { messageMessages } from './message';
export { announcementMessages } from './announcement';
export { serviceMessages } from './service';
export { ramMessages } from './ram';
export { routerMessages } from './router';
export { networkMessages } from './network';
export { networkSettingsUiMessages } from './networkSettingsUi';
export { legalMessages } from './legal';
export { mailMessages } from './mail';
export { networkSegmentsMessages } from './networkSegments';
export { popMessages } from './pop';
export { networkTicketMessages } from './networkTicket';
export { logsMessages } from './logs';
export { saasMessages } from './saas';
export { authSourceMessages } from './authSource';
export { monitorMessages } from './monitor';
export { ldapMessages } from './ldap';
export { ticketMessages } from './ticket';
export { documentMessages } from './document';
export { networkHistoryMessages } from './networkHistory';
export { networkPreviewMessages } from './networkPreview';
export { networkCodeMessages } from './networkCode';
export { overviewMessages } from './overview';
export { apiTokenMessages } from './apiToken';
export { auditMessages } from './audit';
export { diagnosisMessages } from './diagnosis';
export { CM } from './clients';
export { deviceApprovalMessages } from './deviceApproval';
export { mcpMessages } from './mcp';
export { SM } from './selfService';
