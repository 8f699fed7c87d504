/**
 * The schema as Kysely sees it: one interface per table, kept in types/<area>.ts by the area that owns
 * the table (docs/architecture.md, "Who writes which table"), assembled here into `Database`. Times are
 * epoch milliseconds; flags are 0/1 integers (the same on SQLite and PostgreSQL). db/typesDrift.test.ts
 * holds these to the tables and columns the migrations make.
 */
import type { AccountsSchema } from './types/accounts';
import type { EventsSchema } from './types/events';
import type { AuthSchema } from './types/auth';
import type { MessagesSchema } from './types/messages';
import type { AnnouncementsSchema } from './types/announcements';
import type { ServicesSchema } from './types/services';
import type { RamRolesSchema } from './types/ramRoles';
import type { RamSchema } from './types/ram';
import type { ApiTokensSchema } from './types/apiTokens';
import type { MembersSchema } from './types/members';
import type { NetworksSchema } from './types/networks';
import type { GatewaySchema } from './types/gateway';
import type { CompilerSchema } from './types/compiler';
import type { PopSchema } from './types/pop';
import type { NetworkTicketsSchema } from './types/networkTickets';
import type { DeviceApprovalSchema } from './types/deviceApproval';
import type { SaasSchema } from './types/saas';
import type { AuthSourcesSchema } from './types/authSources';
import type { MonitorSchema } from './types/monitor';
import type { LdapSchema } from './types/ldap';
import type { TicketsSchema } from './types/tickets';
import type { DocumentsSchema } from './types/documents';
import type { DownloadsSchema } from './types/downloads';
import type { AuditSchema } from './types/audit';

export type * from './types/accounts';
export type * from './types/events';
export type * from './types/auth';
export type * from './types/messages';
export type * from './types/announcements';
export type * from './types/services';
export type * from './types/ramRoles';
export type * from './types/ram';
export type * from './types/apiTokens';
export type * from './types/members';
export type * from './types/networks';
export type * from './types/gateway';
export type * from './types/compiler';
export type * from './types/pop';
export type * from './types/networkTickets';
export type * from './types/deviceApproval';
export type * from './types/saas';
export type * from './types/authSources';
export type * from './types/monitor';
export type * from './types/ldap';
export type * from './types/tickets';
export type * from './types/documents';
export type * from './types/downloads';
export type * from './types/audit';

export interface Database
  extends AccountsSchema,
    EventsSchema,
    AuthSchema,
    MessagesSchema,
    AnnouncementsSchema,
    ServicesSchema,
    RamRolesSchema,
    RamSchema,
    ApiTokensSchema,
    MembersSchema,
    NetworksSchema,
    GatewaySchema,
    CompilerSchema,
    PopSchema,
    NetworkTicketsSchema,
    DeviceApprovalSchema,
    SaasSchema,
    AuthSourcesSchema,
    MonitorSchema,
    LdapSchema,
    TicketsSchema,
    DocumentsSchema,
    DownloadsSchema,
    AuditSchema {}
