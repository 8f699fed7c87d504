import { fmt, networkTicketMessages, popRegionName, TICKET_STATUS, TICKET_TYPE_ACCESS_POP, type UserMessage } from '@hublink/contract';

/** Type 1001 is the access-POP ticket, anything else "other" (spec 2 §2). */
export const ticketTypeLabel = (type: number) => (type === TICKET_TYPE_ACCESS_POP ? networkTicketMessages.ticketTypeAccessPop : networkTicketMessages.ticketTypeOther);

const STATUS_LABELS: Record<number, string> = {
  [TICKET_STATUS.pending]: networkTicketMessages.ticketStatusPending,
  [TICKET_STATUS.inProgress]: networkTicketMessages.ticketStatusInProgress,
  [TICKET_STATUS.completed]: networkTicketMessages.ticketStatusCompleted,
  [TICKET_STATUS.cancelled]: networkTicketMessages.ticketStatusCancelled,
};
const STATUS_COLORS: Record<number, string> = {
  [TICKET_STATUS.pending]: 'default',
  [TICKET_STATUS.inProgress]: 'processing',
  [TICKET_STATUS.completed]: 'success',
  [TICKET_STATUS.cancelled]: 'warning',
};

export const ticketStatusLabel = (status: number) => STATUS_LABELS[status] ?? String(status);
export const ticketStatusColor = (status: number) => STATUS_COLORS[status] ?? 'default';

/** Delete is offered for pending and cancelled orders, cancel for orders in progress and completed (spec 2 §2). */
export const mayDelete = (status: number) => status === TICKET_STATUS.pending || status === TICKET_STATUS.cancelled;
export const mayCancel = (status: number) => status === TICKET_STATUS.inProgress || status === TICKET_STATUS.completed;

export const bandwidthLabel = (mbps: number) => fmt(networkTicketMessages.ticketBandwidthValue, { n: mbps });
export const yearsLabel = (years: number) => fmt(networkTicketMessages.ticketYears, { n: years });
export const regionsLabel = (regions: readonly string[]) => regions.map(popRegionName).join(networkTicketMessages.ticketListSeparator);

export const TICKET_LIST_PATH = '/network/ticket_lists';

export const ticketDetailPath = (networkNumber: string, ticketNumber: string) =>
  `/network/ticket_detail?network_number=${encodeURIComponent(networkNumber)}&network_ticket_number=${encodeURIComponent(ticketNumber)}`;

export const ticketCreatePath = (networkNumber: string) => `/network/ticket_create?network_number=${encodeURIComponent(networkNumber)}`;

/**
 * Creating, deleting and cancelling orders need the network edit right (the server's guard checks the
 * same, and the role's network list per order); a main account has it.
 */
export function mayEditTickets(user: UserMessage | null): boolean {
  if (!user || user.ram !== 1 || !user.role) return true;
  return user.role['easylink.network'].edit === 1;
}

/** Names in one line. */
export const namesLabel = (names: readonly string[]) => names.join(networkTicketMessages.ticketListSeparator);
