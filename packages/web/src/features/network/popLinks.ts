/** The access-POP order wizard of a network (spec 2 §2). */
export const ticketCreatePath = (networkNumber: string) => `/network/ticket_create?network_number=${encodeURIComponent(networkNumber)}`;
/** The POP point config page of a network. */
export const popEditPath = (networkNumber: string) => `/network/pop_edit?network_number=${encodeURIComponent(networkNumber)}`;
