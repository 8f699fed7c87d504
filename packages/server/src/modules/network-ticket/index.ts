import { defineModule } from '../../core/module';
import { ticketRoutes } from './routes';

/** Network work orders (spec 2 §2): owns network_ticket; reads network and network_member. */
export const networkTicketModule = defineModule({
  name: 'network-ticket',
  routes: ticketRoutes,
});

export { listAllTickets, type OperatorTicket } from './operator';
export { cancelTicket, completeTicket, startTicket } from './transitions';
