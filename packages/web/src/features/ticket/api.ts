import { type Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** The list and the detail of support tickets: every change reloads them. */
const AREA = ['/ticket/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useTicketMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: AREA });

export const TICKET_LIST_PATH = '/ticket/lists';
export const TICKET_CREATE_PATH = '/ticket/create';
export const ticketDetailPath = (ticketNumber: string) => `/ticket/detail?ticket_number=${encodeURIComponent(ticketNumber)}`;
